import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCENARIOS } from '../../demo/agent/driver.js';
import { createDemoHost } from '../../demo/host.js';
import {
  mintMessageId,
  mintRpcId,
  mintTaskSurfaceDismissalId,
  mintTaskSurfaceSubmissionId,
  parseTaskSurfaceModel,
  type SessionEvent,
  type TaskSurfaceId,
} from '../../protocol/index.js';

const texts = (events: SessionEvent[], type: 'assistant/message' | 'user/message') =>
  events.flatMap((e) => (e.type === type ? [e.text] : []));

async function chat() {
  const demo = createDemoHost({ store: 'memory' });
  const { host } = demo;
  const sessionId = host.openSession({ title: 'Welcome' });
  const say = async (text: string) => {
    await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text });
    await host.whenIdle(sessionId);
  };
  const submit = async (values: Record<string, unknown>) => {
    const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId as TaskSurfaceId;
    const result = await host.taskSurface.submit({
      sessionId,
      surfaceId,
      submissionId: mintTaskSurfaceSubmissionId(),
      values: values as never,
    });
    assert.equal(result.accepted, true, JSON.stringify(result));
    await host.whenIdle(sessionId);
  };
  const dismiss = async () => {
    const surfaceId = host.getView(sessionId).taskSurface.active!.surfaceId as TaskSurfaceId;
    const result = await host.taskSurface.dismiss({ sessionId, surfaceId, dismissalId: mintTaskSurfaceDismissalId() });
    assert.equal(result.dismissed, true, JSON.stringify(result));
    await host.whenIdle(sessionId);
  };
  const events = async () => (await host.readLog(sessionId, { limit: 500 })).events;
  return { host, sessionId, say, submit, dismiss, events, close: () => demo.dispose() };
}

describe('the scripted demo agent', () => {
  it('ships models that pass the parser, in both languages, covering every block and field kind', () => {
    const blocks = new Set<string>();
    const fields = new Set<string>();
    let grid = false;
    for (const scenario of SCENARIOS) {
      for (const lang of ['en', 'zh'] as const) {
        const parsed = parseTaskSurfaceModel(scenario.model[lang]);
        assert.ok(parsed.ok, `${scenario.name}/${lang}: ${JSON.stringify(parsed)}`);
        for (const section of scenario.model[lang].sections) {
          if (section.layout?.kind === 'grid') grid = true;
          for (const block of section.blocks) blocks.add(block.kind);
        }
        for (const field of scenario.model[lang].fields ?? []) fields.add(field.kind);
      }
    }
    assert.deepEqual([...blocks].sort(), ['diff', 'markdown', 'metrics', 'notice', 'table']);
    assert.deepEqual([...fields].sort(), ['choice', 'multi-choice', 'order', 'text', 'toggle']);
    assert.ok(grid);
    const settings = SCENARIOS.find((s) => s.name === 'settings')!.model.en;
    assert.deepEqual(new Set(settings.fields!.map((f) => f.kind)).size, 5, 'the settings form has every field kind');
  });

  it('answers a submission by reading the structured values back, then offers a page card', async () => {
    const c = await chat();
    await c.say('reorder the launch plan');
    await c.submit({ steps: ['migrate', 'flags', 'docs', 'announce', 'monitor'], skip: ['announce'] });
    const answer = texts(await c.events(), 'assistant/message').at(-1)!;
    assert.match(answer, /\*\*Launch steps\*\*: 1\. Run the data migration → 2\. Turn on feature flags for staff/);
    assert.match(answer, /\*\*Steps we can skip this week\*\*: Announce on the blog/);
    assert.match(answer, /Plan updated: 5 steps, 1 skipped this week\./);
    const [card] = c.host.getView(c.sessionId).actionCards.proposals;
    assert.equal(card?.action, 'create_page');
    await c.close();
  });

  it('answers in Chinese when spoken to in Chinese, and says when a message bypassed the panel', async () => {
    const c = await chat();
    await c.say('请给我看通知设置');
    assert.equal(c.host.getView(c.sessionId).taskSurface.active !== null, true);
    await c.say('算了');
    const answer = texts(await c.events(), 'assistant/message').at(-1)!;
    assert.match(answer, /^你直接发了消息而没有使用面板，所以我关闭了它。/);
    assert.equal(c.host.getView(c.sessionId).taskSurface.active, null);
    await c.close();
  });

  for (const [lang, ask, next, said, bypass] of [
    [
      'en',
      'review the change',
      'hello',
      /^You dismissed the panel, so I’ve set that question aside\. I’m a scripted demo agent/,
      /instead of using the panel/,
    ],
    ['zh', '审查代码改动', '你好', /^你关闭了面板，那个问题先放一放。我是一个脚本化的演示助手/, /没有使用面板/],
  ] as const) {
    it(`tells a dismissal from a bypass (${lang}), and says so once`, async () => {
      const c = await chat();
      await c.say(ask);
      await c.dismiss();
      await c.say(next);
      const answers = () => c.events().then((events) => texts(events, 'assistant/message'));
      assert.match((await answers()).at(-1)!, said);
      assert.doesNotMatch((await answers()).at(-1)!, bypass);
      await c.say(next);
      assert.doesNotMatch((await answers()).at(-1)!, /dismissed|关闭了面板/);
      await c.close();
    });
  }

  it('reads a Chinese submission back with full-width colons', async () => {
    const c = await chat();
    await c.say('比较数据库');
    await c.submit({ database: 'sqlite', reason: '' });
    const answer = texts(await c.events(), 'assistant/message').at(-1)!;
    assert.match(answer, /^我收到的是：\n- \*\*数据库\*\*：SQLite\n/);
    assert.doesNotMatch(answer, /\*\*: /);
    await c.close();
  });

  it('does not call a message after an answered panel a bypass', async () => {
    const c = await chat();
    await c.say('reorder the launch plan');
    await c.submit({ steps: ['migrate', 'flags', 'docs', 'announce', 'monitor'], skip: [] });
    await c.say('hello');
    assert.match(texts(await c.events(), 'assistant/message').at(-1)!, /^I’m a scripted demo agent\./);
    await c.close();
  });

  it('offers a follow-up card on request and explains itself otherwise', async () => {
    const c = await chat();
    await c.say('remind me to follow up on this');
    assert.equal(c.host.getView(c.sessionId).actionCards.proposals[0]?.action, 'schedule_follow_up');
    await c.say('hello');
    assert.match(texts(await c.events(), 'assistant/message').at(-1)!, /I’m a scripted demo agent\. Try:/);
    await c.close();
  });
});
