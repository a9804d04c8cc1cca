import type { JsonValue, TaskSurfaceField, TaskSurfaceModelV1 } from '../../protocol/index.js';
import type { Lang, Scenario } from './scenarios.js';

const words = {
  en: { yes: 'yes', no: 'no', none: 'none', empty: '(left empty)' },
  zh: { yes: '是', no: '否', none: '无', empty: '（未填写）' },
} as const;

/** One line per field: the submitted value read back with the labels the person saw. */
export function readBack(model: TaskSurfaceModelV1, values: Record<string, JsonValue>, lang: Lang): string[] {
  return (model.fields ?? []).map(
    (field) => `- **${field.label}**${lang === 'zh' ? '：' : ': '}${describe(field, values[field.id], lang)}`,
  );
}

function describe(field: TaskSurfaceField, value: JsonValue | undefined, lang: Lang): string {
  const w = words[lang];
  const label = (id: JsonValue) => ('options' in field ? field.options.find((o) => o.id === id)?.label : undefined) ?? String(id);
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' && value.trim() !== '' ? `“${value.trim()}”` : w.empty;
    case 'toggle':
      return value === true ? w.yes : w.no;
    case 'choice':
      return typeof value === 'string' ? label(value) : w.none;
    case 'multi-choice':
      return Array.isArray(value) && value.length > 0 ? value.map(label).join(lang === 'zh' ? '、' : ', ') : w.none;
    case 'order':
      return Array.isArray(value) ? value.map((id, i) => `${i + 1}. ${label(id)}`).join(' → ') : w.none;
  }
}

/** The scenario's conclusion from the submitted values (what a real agent would do next). */
export function conclude(scenario: Scenario, values: Record<string, JsonValue>, lang: Lang): string {
  const model = scenario.model[lang];
  const pick = (id: string) => (model.fields ?? []).find((f) => f.id === id);
  const zh = lang === 'zh';
  switch (scenario.name) {
    case 'compare': {
      const field = pick('database');
      const chosen = field && 'options' in field ? field.options.find((o) => o.id === values.database)?.label : undefined;
      return chosen
        ? zh
          ? `好的，就用 **${chosen}**。我会据此起草迁移方案。`
          : `Going with **${chosen}**. I’ll draft the migration around it.`
        : zh
          ? '你没有选择数据库，我们先保持现状。'
          : 'You did not pick a database, so we keep things as they are for now.';
    }
    case 'plan': {
      const steps = Array.isArray(values.steps) ? values.steps : [];
      const skipped = Array.isArray(values.skip) ? values.skip.length : 0;
      return zh
        ? `计划已更新：共 ${steps.length} 步，本周跳过 ${skipped} 步。`
        : `Plan updated: ${steps.length} steps, ${skipped} skipped this week.`;
    }
    case 'review':
      return values.approve === true
        ? zh
          ? '已批准，我会合并这个改动。'
          : 'Approved — I’ll merge the change.'
        : zh
          ? '未批准，我会根据你的评论修改。'
          : 'Not approved yet — I’ll rework it along your comment.';
    case 'settings':
      return zh ? '设置已保存。' : 'Settings saved.';
  }
}
