// The panel's own rules, driven headless over a fake host whose tool calls go to the real view tool
// and ledger: a failed read does not disable the panel, typed values survive a new view, the answer
// is written in every shipped language and a registered one, and it reaches the model exactly once
// whether the host sends, refuses, only pre-fills or takes no message at all.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { SHIPPED_LOCALES } from '../../components/i18n/index.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { handleAnswerCall } from '../../mcp/answerTool.js';
import { APP_STRINGS } from '../../mcp/app/strings.js';
import { PanelSession, type PanelHost } from '../../mcp/app/panelApp.js';
import { MAX_DRAFTS } from '../../mcp/drafts.js';
import { createPanelLedger, type PanelLedger } from '../../mcp/ledger.js';
import { handleViewCall } from '../../mcp/viewTool.js';
import { registerSubmissionWords, SUBMISSION_WORDS, type TaskSurfaceModelV1 } from '../../protocol/index.js';
import { smallModel } from './helpers.js';

function newLedger(t: TestContext): PanelLedger {
  const store = createMemoryStore();
  const ledger = createPanelLedger({ store });
  t.after(async () => {
    await ledger.close();
    store.close();
  });
  return ledger;
}

async function show(ledger: PanelLedger, model: TaskSurfaceModelV1 = smallModel()) {
  const shown = await ledger.show({ model }, 'model', { record: true });
  assert.ok(shown.ok, shown.content);
  return shown;
}

interface FakeHost extends PanelHost {
  sent: string[];
  /** Tool calls that fail before reaching the server (a host that lost its connection). */
  failCalls: number;
  /** Tool calls the server runs whose reply is lost on the way back. */
  loseReplies: number;
  /** The host's reply to the next messages: `isError` or a thrown error. */
  replies: ('ok' | 'isError' | 'throw' | 'lost')[];
}

function fakeHost(ledger: PanelLedger, options: { message?: boolean; name?: string } = {}): FakeHost {
  const host: FakeHost = {
    sent: [],
    failCalls: 0,
    loseReplies: 0,
    replies: [],
    async callServerTool({ arguments: args }) {
      if (host.failCalls > 0) {
        host.failCalls--;
        throw new Error('the host lost its server');
      }
      const reply = await handleViewCall(ledger, args);
      if (host.loseReplies > 0) {
        host.loseReplies--;
        throw new Error('the reply was lost');
      }
      return reply;
    },
    async sendMessage({ content }) {
      if (options.message === false) throw Object.assign(new Error('Method not found'), { name: 'HostRefusal', code: -32601 });
      const reply = host.replies.shift() ?? 'ok';
      if (reply === 'throw') throw Object.assign(new Error('the chat is busy'), { name: 'HostRefusal' });
      if (reply === 'lost') throw new Error('the host did not answer ui/message within 60000 ms');
      host.sent.push(content[0]!.text);
      return reply === 'isError' ? { isError: true } : {};
    },
    updateModelContext: async () => ({}),
    getHostVersion: () => ({ name: options.name ?? 'test-host' }),
  };
  return host;
}

const session = (host: PanelHost, locale = 'en') =>
  new PanelSession(host, {
    onChange: () => undefined,
    locale: () => locale,
    dismissedText: (title) => `dismissed ${title}`,
    draftDelayMs: 0,
  });
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
const values = { db: 'pg', why: 'joins' };
const delivery = (s: PanelSession) => (s.phase.kind === 'submitted' ? s.phase.delivery : s.phase.kind);

describe('the panel view', () => {
  test('a failed read leaves the panel answerable; Try again reads the server once it is back', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const host = fakeHost(ledger);
    host.failCalls = 1;
    const view = session(host);
    await view.result(shown.model, shown.viewId);
    assert.deepEqual(view.phase, { kind: 'open', busy: false, problem: 'unreachable' }, 'answerable, and says why it may fail');
    await view.retry();
    assert.deepEqual(view.phase, { kind: 'open', busy: false, problem: null });
    await view.submit(values);
    await settle();
    assert.equal(host.sent.length, 1);
  });

  test('answerable at the result, before the read answers; a read older than a submit changes nothing', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const host = fakeHost(ledger);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const call = host.callServerTool.bind(host);
    let held = false;
    host.callServerTool = async (params) => {
      if (held || params.arguments['action'] !== 'read') return call(params);
      held = true;
      const answer = await call(params); // the panel is open when the server answers…
      await gate; // …and the answer arrives late
      return answer;
    };
    const view = session(host);
    const reading = view.result(shown.model, shown.viewId);
    assert.deepEqual(view.phase, { kind: 'open', busy: false, problem: null }, 'answerable before the read answers');
    await view.submit(values);
    await settle();
    assert.equal(delivery(view), 'delivered');
    release();
    await reading;
    assert.equal(delivery(view), 'delivered', 'the late read does not reopen the panel');
    assert.equal(host.sent.length, 1);
  });

  test('a submit whose reply was lost: Try again finds the answer recorded and sends it, once', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const host = fakeHost(ledger);
    const view = session(host);
    await view.result(shown.model, shown.viewId);
    host.loseReplies = 1;
    await view.submit(values);
    assert.deepEqual(view.phase, { kind: 'open', busy: false, problem: 'unreachable' });
    assert.deepEqual(host.sent, [], 'nothing sent without the server saying it holds the answer');
    await view.retry();
    await settle();
    assert.equal(delivery(view), 'delivered');
    assert.equal(host.sent.length, 1);
    await view.retry();
    await settle();
    assert.equal(host.sent.length, 1, 'a read of a delivered answer sends nothing');
  });

  test('what the person typed comes back in a new view of the same panel, and goes once answered', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const first = session(fakeHost(ledger));
    await first.result(shown.model, shown.viewId);
    first.edit({ db: 'sqlite', why: 'small' });
    await settle();
    const second = session(fakeHost(ledger));
    await second.result(shown.model, shown.viewId);
    assert.deepEqual(second.values, { db: 'sqlite', why: 'small' });
    await second.submit(values);
    const read = await handleViewCall(ledger, { action: 'read', viewId: shown.viewId });
    assert.equal((read.structuredContent as { draft?: unknown }).draft, undefined);
  });

  test('drafts are bounded: a draft over the submission limit is not kept, and old panels go first', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const big = await handleViewCall(ledger, { action: 'draft', viewId: shown.viewId, values: { why: 'x'.repeat(70_000) } });
    assert.equal((big.structuredContent as { draft?: unknown }).draft, undefined);
    const panels = [];
    for (let i = 0; i <= MAX_DRAFTS; i++) {
      const panel = await show(ledger);
      panels.push(panel.viewId);
      await handleViewCall(ledger, { action: 'draft', viewId: panel.viewId, values: { why: String(i) } });
    }
    const oldest = await handleViewCall(ledger, { action: 'read', viewId: panels[0]! });
    const newest = await handleViewCall(ledger, { action: 'read', viewId: panels.at(-1)! });
    assert.equal((oldest.structuredContent as { draft?: unknown }).draft, undefined);
    assert.deepEqual((newest.structuredContent as { draft?: unknown }).draft, { why: String(MAX_DRAFTS) });
  });

  test('a host that refuses the message: not delivered, the tool can deliver it, Send again sends it', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const host = fakeHost(ledger);
    host.replies.push('isError', 'throw');
    const view = session(host);
    await view.result(shown.model, shown.viewId);
    await view.submit(values);
    await settle();
    assert.equal(delivery(view), 'failed');
    await view.sendAgain();
    assert.equal(delivery(view), 'failed', 'an error answer is a refusal too');
    await view.sendAgain();
    assert.equal(delivery(view), 'delivered');
    assert.equal(host.sent.length, 2, 'the refused one and the accepted one (the error answer sent nothing)');
    const read = await handleAnswerCall(ledger, { panelId: shown.viewId });
    assert.equal((read.structuredContent as { alreadyDelivered: boolean }).alreadyDelivered, true);
  });

  test('a message the host never answered is not called refused: the view is unsure and does not send by itself', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const host = fakeHost(ledger);
    host.replies.push('lost');
    const view = session(host);
    await view.result(shown.model, shown.viewId);
    await view.submit(values);
    await settle();
    assert.deepEqual([delivery(view), host.sent.length], ['unsure', 0]);
    const read = await handleAnswerCall(ledger, { panelId: shown.viewId });
    assert.equal((read.structuredContent as { alreadyDelivered: boolean }).alreadyDelivered, true, 'it may have reached the chat');
  });

  test('the model read the answer while the host was refusing the message: the view says the assistant has it', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    const host = fakeHost(ledger);
    const send = host.sendMessage.bind(host);
    host.sendMessage = async (params) => {
      await handleAnswerCall(ledger, { panelId: shown.viewId }); // the model reads it meanwhile
      await send(params);
      return { isError: true };
    };
    const view = session(host);
    await view.result(shown.model, shown.viewId);
    await view.submit(values);
    await settle();
    assert.equal(delivery(view), 'read');
    await view.sendAgain();
    assert.equal(host.sent.length, 1, 'no second send');
  });

  test('the model read the answer first: the view sends nothing and says the assistant has it', async (t) => {
    const ledger = newLedger(t);
    const shown = await show(ledger);
    await handleViewCall(ledger, { action: 'submit', viewId: shown.viewId, submissionId: 'sub-a', values });
    await handleAnswerCall(ledger, { panelId: shown.viewId });
    const host = fakeHost(ledger);
    const view = session(host);
    await view.result(shown.model, shown.viewId);
    assert.equal(delivery(view), 'read');
    await view.sendAgain();
    assert.deepEqual(host.sent, []);
  });

  test('a host without ui/message (Method not found) is not counted as sent; a host that pre-fills says the answer waits in the input', async (t) => {
    const ledger = newLedger(t);
    const silent = fakeHost(ledger, { message: false });
    const a = session(silent);
    const first = await show(ledger);
    await a.result(first.model, first.viewId);
    await a.submit(values);
    await settle();
    assert.deepEqual([delivery(a), silent.sent.length], ['no-channel', 0]);
    const read = await handleAnswerCall(ledger, { panelId: first.viewId });
    assert.equal((read.structuredContent as { alreadyDelivered: boolean }).alreadyDelivered, false, 'the tool delivers it');

    const vscode = fakeHost(ledger, { name: 'Visual Studio Code' });
    const b = session(vscode);
    const second = await show(ledger);
    await b.result(second.model, second.viewId);
    await b.submit(values);
    await settle();
    assert.deepEqual([delivery(b), vscode.sent.length], ['prefilled', 1]);
  });
});

describe('the answer in every language', () => {
  const model: TaskSurfaceModelV1 = {
    version: 1,
    title: 'Ready?',
    sections: [],
    fields: [{ kind: 'toggle', id: 'ok', label: 'Ready' }],
    submit: { label: 'Send' },
  };
  for (const locale of [...SHIPPED_LOCALES, 'fr']) {
    test(`${locale}: the view tool takes the locale and the text is written in it`, async (t) => {
      const words = locale === 'fr' ? { ...SUBMISSION_WORDS['en']!, yes: 'oui', no: 'non' } : SUBMISSION_WORDS[locale]!;
      if (locale === 'fr') t.after(registerSubmissionWords('fr', words));
      const ledger = newLedger(t);
      const shown = await show(ledger, model);
      const host = fakeHost(ledger);
      const view = session(host, locale);
      await view.result(shown.model, shown.viewId);
      await view.submit({ ok: true });
      await settle();
      assert.deepEqual(host.sent, [`Ready?\nReady${words.colon}${words.yes}`]);
    });
  }

  test("the panel's own chrome has every key in every shipped language", () => {
    assert.deepEqual(Object.keys(APP_STRINGS).sort(), [...SHIPPED_LOCALES].sort());
    for (const [tag, table] of Object.entries(APP_STRINGS)) {
      assert.deepEqual(Object.keys(table), Object.keys(APP_STRINGS['en']!), tag);
      if (tag !== 'en') assert.notEqual(table.unreachable, APP_STRINGS['en']!.unreachable, `${tag} says it in its own words`);
    }
  });
});
