import type { TaskSurfaceModelV1 } from '../../protocol/index.js';

/*
 * The demo agent's task surfaces. Between them they use every block kind (markdown, metrics,
 * table, diff, notice), every field kind (text, choice, multi-choice, toggle, order) and both
 * layouts. Each scenario has its own field ids, so a submission tells which one it answers.
 */

export type ScenarioName = 'compare' | 'plan' | 'review' | 'settings';
export type Lang = 'en' | 'zh';

export interface Scenario {
  name: ScenarioName;
  /** Words in a person's message that ask for this scenario. */
  triggers: RegExp;
  intro: Record<Lang, string>;
  model: Record<Lang, TaskSurfaceModelV1>;
}

const compare: Scenario = {
  name: 'compare',
  triggers: /\b(compare|comparison|options?|database|choose)\b|比较|对比|选项/i,
  intro: {
    en: 'Here are three databases that fit the ledger service. Pick one in the panel below and tell me why.',
    zh: '这里有三个适合账本服务的数据库。请在下方面板中选择一个，并说说理由。',
  },
  model: {
    en: {
      version: 1,
      title: 'Pick a database for the ledger service',
      description: 'Measured on last week’s traffic replay (1.2 M writes/day).',
      sections: [
        {
          id: 'numbers',
          title: 'At a glance',
          blocks: [
            {
              kind: 'metrics',
              items: [
                { label: 'PostgreSQL p99', value: '4.1 ms', detail: 'single primary' },
                { label: 'CockroachDB p99', value: '9.8 ms', detail: '3 regions' },
                { label: 'SQLite p99', value: '0.6 ms', detail: 'embedded, one node' },
              ],
            },
          ],
        },
        {
          id: 'table',
          title: 'Side by side',
          blocks: [
            {
              kind: 'table',
              columns: [
                { id: 'name', label: 'Option' },
                { id: 'cost', label: 'Monthly cost (USD)' },
                { id: 'ha', label: 'Survives a region outage' },
                { id: 'ops', label: 'Ops effort' },
              ],
              rows: [
                { name: 'PostgreSQL', cost: 420, ha: false, ops: 'low' },
                { name: 'CockroachDB', cost: 1900, ha: true, ops: 'medium' },
                { name: 'SQLite', cost: 0, ha: false, ops: 'lowest' },
              ],
            },
            {
              kind: 'markdown',
              text: 'All three pass the **consistency suite**. See the [benchmark notes](https://example.com/ledger-bench) for method.',
            },
          ],
        },
      ],
      fields: [
        {
          kind: 'choice',
          id: 'database',
          label: 'Database',
          initial: 'postgres',
          options: [
            { id: 'postgres', label: 'PostgreSQL', detail: 'Cheapest managed option, one region' },
            { id: 'cockroach', label: 'CockroachDB', detail: 'Multi-region, 4.5× the cost' },
            { id: 'sqlite', label: 'SQLite', detail: 'Fastest, but a single node' },
          ],
        },
        { kind: 'text', id: 'reason', label: 'Why this one? (optional)', multiline: true },
      ],
      submit: { label: 'Use this database' },
    },
    zh: {
      version: 1,
      title: '为账本服务选择数据库',
      description: '基于上周流量回放测得（每天 120 万次写入）。',
      sections: [
        {
          id: 'numbers',
          title: '概览',
          blocks: [
            {
              kind: 'metrics',
              items: [
                { label: 'PostgreSQL p99', value: '4.1 ms', detail: '单主节点' },
                { label: 'CockroachDB p99', value: '9.8 ms', detail: '三个区域' },
                { label: 'SQLite p99', value: '0.6 ms', detail: '嵌入式，单节点' },
              ],
            },
          ],
        },
        {
          id: 'table',
          title: '并排比较',
          blocks: [
            {
              kind: 'table',
              columns: [
                { id: 'name', label: '选项' },
                { id: 'cost', label: '每月成本（美元）' },
                { id: 'ha', label: '可承受区域故障' },
                { id: 'ops', label: '运维投入' },
              ],
              rows: [
                { name: 'PostgreSQL', cost: 420, ha: false, ops: '低' },
                { name: 'CockroachDB', cost: 1900, ha: true, ops: '中' },
                { name: 'SQLite', cost: 0, ha: false, ops: '最低' },
              ],
            },
            { kind: 'markdown', text: '三者都通过了**一致性测试**。方法见[基准说明](https://example.com/ledger-bench)。' },
          ],
        },
      ],
      fields: [
        {
          kind: 'choice',
          id: 'database',
          label: '数据库',
          initial: 'postgres',
          options: [
            { id: 'postgres', label: 'PostgreSQL', detail: '最便宜的托管方案，单区域' },
            { id: 'cockroach', label: 'CockroachDB', detail: '多区域，成本是 4.5 倍' },
            { id: 'sqlite', label: 'SQLite', detail: '最快，但只有单节点' },
          ],
        },
        { kind: 'text', id: 'reason', label: '为什么选它？（可选）', multiline: true },
      ],
      submit: { label: '使用这个数据库' },
    },
  },
};

const plan: Scenario = {
  name: 'plan',
  triggers: /\b(plan|reorder|order|steps|launch)\b|计划|排序|步骤/i,
  intro: {
    en: 'I drafted the launch plan. Put the steps in the order you want and mark any we can skip this week.',
    zh: '我起草了发布计划。请把步骤排成你想要的顺序，并标出本周可以跳过的步骤。',
  },
  model: {
    en: {
      version: 1,
      title: 'Order the launch plan',
      sections: [
        {
          id: 'about',
          blocks: [
            { kind: 'markdown', text: 'Drag is not needed: focus a step and press **Alt+↑/↓** to move it, or use its buttons.' },
            { kind: 'notice', tone: 'info', text: 'The freeze starts Thursday; anything after step 3 may slip to next week.' },
          ],
        },
      ],
      fields: [
        {
          kind: 'order',
          id: 'steps',
          label: 'Launch steps',
          options: [
            { id: 'flags', label: 'Turn on feature flags for staff' },
            { id: 'docs', label: 'Publish the docs' },
            { id: 'migrate', label: 'Run the data migration', detail: 'about 40 minutes' },
            { id: 'announce', label: 'Announce on the blog' },
            { id: 'monitor', label: 'Watch the dashboards for a day' },
          ],
        },
        {
          kind: 'multi-choice',
          id: 'skip',
          label: 'Steps we can skip this week',
          options: [
            { id: 'docs', label: 'Publish the docs' },
            { id: 'announce', label: 'Announce on the blog' },
          ],
        },
      ],
      submit: { label: 'Save the order' },
    },
    zh: {
      version: 1,
      title: '排列发布计划',
      sections: [
        {
          id: 'about',
          blocks: [
            { kind: 'markdown', text: '不需要拖动：聚焦一个步骤后按 **Alt+↑/↓** 移动它，或使用它的按钮。' },
            { kind: 'notice', tone: 'info', text: '冻结期周四开始；第 3 步之后的内容可能推迟到下周。' },
          ],
        },
      ],
      fields: [
        {
          kind: 'order',
          id: 'steps',
          label: '发布步骤',
          options: [
            { id: 'flags', label: '为员工打开功能开关' },
            { id: 'docs', label: '发布文档' },
            { id: 'migrate', label: '执行数据迁移', detail: '约 40 分钟' },
            { id: 'announce', label: '在博客上宣布' },
            { id: 'monitor', label: '观察仪表盘一天' },
          ],
        },
        {
          kind: 'multi-choice',
          id: 'skip',
          label: '本周可以跳过的步骤',
          options: [
            { id: 'docs', label: '发布文档' },
            { id: 'announce', label: '在博客上宣布' },
          ],
        },
      ],
      submit: { label: '保存顺序' },
    },
  },
};

const before = `export async function retry(fn) {
  for (let i = 0; i < 3; i++) {
    try { return await fn(); } catch {}
  }
}
`;
const after = `export async function retry(fn, attempts = 3) {
  let last;
  for (let i = 0; i < attempts; i++) {
    try { return await fn(); } catch (error) { last = error; }
    await sleep(2 ** i * 100);
  }
  throw last;
}
`;

const review: Scenario = {
  name: 'review',
  triggers: /\b(review|change|diff|patch|pr)\b|审查|改动|代码/i,
  intro: {
    en: 'Here is the change to the retry helper. Approve it or leave a comment.',
    zh: '这是重试辅助函数的改动。请批准或留下评论。',
  },
  model: {
    en: {
      version: 1,
      title: 'Review: retry with back-off',
      sections: [
        {
          id: 'change',
          blocks: [
            { kind: 'diff', path: 'src/retry.ts', language: 'typescript', before, after },
            { kind: 'notice', tone: 'warning', text: 'The helper now rethrows the last error instead of returning undefined.' },
          ],
        },
      ],
      fields: [
        { kind: 'toggle', id: 'approve', label: 'Approve this change' },
        { kind: 'toggle', id: 'backport', label: 'Backport to the 2.x branch', initial: true },
        { kind: 'text', id: 'comment', label: 'Comment', multiline: true },
      ],
      submit: { label: 'Send review' },
    },
    zh: {
      version: 1,
      title: '审查：带退避的重试',
      sections: [
        {
          id: 'change',
          blocks: [
            { kind: 'diff', path: 'src/retry.ts', language: 'typescript', before, after },
            { kind: 'notice', tone: 'warning', text: '该函数现在会重新抛出最后一个错误，而不是返回 undefined。' },
          ],
        },
      ],
      fields: [
        { kind: 'toggle', id: 'approve', label: '批准此改动' },
        { kind: 'toggle', id: 'backport', label: '回移到 2.x 分支', initial: true },
        { kind: 'text', id: 'comment', label: '评论', multiline: true },
      ],
      submit: { label: '提交审查' },
    },
  },
};

export { compare, plan, review };
