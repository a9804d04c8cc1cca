// The hosts as they really are: one that passes the panel's ui/message to the model, one that takes
// it and drops it (claude.ai), one that only pre-fills the chat input (VS Code), one that takes no
// message at all, one without MCP Apps (text), one with a limited form renderer (Codex), and a
// 2026-07-28 client over stateless HTTP. The panel is the real view logic (PanelSession) over the SDK
// Client; the model follows the result's words (read the panel when the person says they answered;
// act on an answer once). In each, the model receives the answer exactly once, in every shipped
// language and in one the product registers.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test, type TestContext } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport, type ClientCapabilities } from '@modelcontextprotocol/server';
import { SHIPPED_LOCALES } from '../../components/i18n/index.js';
import { PRODUCT_LOCALE, PRODUCT_WORDS, registerProductLocale } from '../../conformance/index.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { PanelSession, type PanelHost } from '../../mcp/app/panelApp.js';
import { ANSWER_TOOL } from '../../mcp/constants.js';
import { optionKey } from '../../mcp/elicitation.js';
import { createMcpHttpHandler } from '../../mcp/http.js';
import { createPanelLedger } from '../../mcp/ledger.js';
import { createTaskSurfaceMcpServer } from '../../mcp/server.js';
import { SUBMISSION_WORDS, type TaskSurfaceModelV1 } from '../../protocol/index.js';
import { APPS, textOf } from './helpers.js';

const panel: TaskSurfaceModelV1 = {
  version: 1,
  title: 'Trip',
  sections: [],
  fields: [
    { kind: 'toggle', id: 'train', label: 'By train' },
    {
      kind: 'multi-choice',
      id: 'food',
      label: 'Food',
      options: [
        { id: 'figs', label: 'Figs' },
        { id: 'rice', label: 'Rice' },
      ],
    },
  ],
  submit: { label: 'Go' },
};
const values = { train: true, food: ['figs'] };

/** The model's side: the chat it reads, and every answer it acted on. */
class Model {
  readonly chat: string[] = [];
  readonly actedOn: string[] = [];
  constructor(private readonly client: Client) {}

  /** A user message reaches the model: an answer's text is acted on. */
  read(text: string): void {
    this.chat.push(text);
    if (text.startsWith('Trip\n')) this.actedOn.push(text);
  }

  /** The person says they answered: the model reads the panel, and acts on an answer it has not seen. */
  async told(panelId: string): Promise<void> {
    this.chat.push('I answered the panel.');
    const result = await this.client.callTool({ name: ANSWER_TOOL, arguments: { panelId } });
    const state = result.structuredContent as { status: string; text?: string; alreadyDelivered?: boolean };
    if (state.status !== 'submitted') return;
    // "Act on it once: if you have acted on it, do nothing more" (the first delivery is simply acted on).
    const seen = this.chat.includes(state.text!) || this.actedOn.includes(state.text!);
    if (!state.alreadyDelivered || !seen) this.actedOn.push(state.text!);
  }
}

async function connect(t: TestContext, capabilities: ClientCapabilities) {
  const store = createMemoryStore();
  const ledger = createPanelLedger({ store });
  const server = createTaskSurfaceMcpServer({ appHtml: '<!doctype html><title>panel</title>', ledger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities });
  await client.connect(clientSide);
  t.after(async () => {
    await client.close();
    await server.close();
    await ledger.close();
    store.close();
  });
  return client;
}

type HostKind = 'passes' | 'drops' | 'prefills-sent' | 'prefills-typed-first' | 'no-message';

/** The panel in a host of `kind`, answered by the person; returns the model and the panel id. */
async function answerInHost(t: TestContext, kind: HostKind, locale: string) {
  const client = await connect(t, APPS);
  const agent = new Model(client);
  const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: panel } });
  const panelId = (shown._meta as { viewUUID: string }).viewUUID;
  const input: string[] = []; // VS Code's chat input
  const host: PanelHost = {
    callServerTool: (params) => client.callTool(params),
    async sendMessage({ content }) {
      if (kind === 'no-message') throw Object.assign(new Error('Method not found: ui/message'), { name: 'HostRefusal', code: -32601 });
      const text = content[0]!.text;
      if (kind === 'passes') agent.read(text);
      if (kind === 'prefills-typed-first') return { isError: true };
      if (kind === 'prefills-sent') input.push(text);
      return {};
    },
    updateModelContext: async () => ({}),
    getHostVersion: () => ({ name: kind.startsWith('prefills') ? 'Visual Studio Code' : 'host' }),
  };
  const view = new PanelSession(host, { onChange: () => undefined, locale: () => locale, dismissedText: (title) => title });
  const result = shown.structuredContent as { model: never };
  await view.result(result.model, panelId);
  await view.submit(values);
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { agent, panelId, view, input };
}

describe('the model receives the answer exactly once, whatever the host drops', () => {
  // The shipped languages, and one the product registers on its server (the conformance kit's).
  let unregister = () => {};
  before(() => (unregister = registerProductLocale()));
  after(() => unregister());
  for (const locale of [...SHIPPED_LOCALES, PRODUCT_LOCALE]) {
    const words = SUBMISSION_WORDS[locale] ?? PRODUCT_WORDS;
    const expected = `Trip\nBy train${words.colon}${words.yes}\nFood${words.colon}Figs`;

    test(`${locale}: a host that passes ui/message; a later read says it was delivered`, async (t) => {
      const { agent, panelId } = await answerInHost(t, 'passes', locale);
      await agent.told(panelId);
      assert.deepEqual(agent.actedOn, [expected]);
    });

    test(`${locale}: a host that takes ui/message and drops it; the model reads it when told`, async (t) => {
      const { agent, panelId } = await answerInHost(t, 'drops', locale);
      assert.deepEqual(agent.actedOn, []);
      await agent.told(panelId);
      await agent.told(panelId);
      assert.deepEqual(agent.actedOn, [expected]);
    });

    test(`${locale}: a host that pre-fills the input: sent with Enter, or refused and read by the model`, async (t) => {
      const sent = await answerInHost(t, 'prefills-sent', locale);
      assert.equal(sent.view.phase.kind === 'submitted' && sent.view.phase.delivery, 'prefilled');
      for (const text of sent.input) sent.agent.read(text); // the person presses Enter
      await sent.agent.told(sent.panelId);
      assert.deepEqual(sent.agent.actedOn, [expected]);

      const refused = await answerInHost(t, 'prefills-typed-first', locale);
      assert.equal(refused.view.phase.kind === 'submitted' && refused.view.phase.delivery, 'failed');
      await refused.agent.told(refused.panelId);
      await refused.view.sendAgain(); // the person presses Send again after all: the channel is taken
      assert.deepEqual(refused.agent.actedOn, [expected]);
      assert.equal(refused.view.phase.kind === 'submitted' && refused.view.phase.delivery, 'read');
    });

    test(`${locale}: a host that takes no ui/message; the model reads the answer`, async (t) => {
      const { agent, panelId, view } = await answerInHost(t, 'no-message', locale);
      assert.equal(view.phase.kind === 'submitted' && view.phase.delivery, 'no-channel');
      await agent.told(panelId);
      assert.deepEqual(agent.actedOn, [expected]);
    });
  }
});

describe('hosts without MCP Apps', () => {
  test('a client without apps or forms: the model asks in chat, with the panel as text', async (t) => {
    const client = await connect(t, {});
    const result = await client.callTool({ name: 'show_task_surface', arguments: { model: panel } });
    assert.match(textOf(result), /ask the person in chat instead[\s\S]*- Food \(pick any\):\n {2}- Figs \[figs\]/);
  });

  test('a form renderer of strings, booleans and single-select enums only (Codex) answers a multi-choice', async (t) => {
    const client = await connect(t, { elicitation: { form: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      const properties = (request.params as { requestedSchema: { properties: Record<string, { type: string }> } }).requestedSchema
        .properties;
      for (const [key, schema] of Object.entries(properties)) assert.ok(['string', 'boolean'].includes(schema.type), key);
      return { action: 'accept', content: { train: true, [optionKey('food', 'figs')]: true } };
    });
    const result = await client.callTool({ name: 'show_task_surface', arguments: { model: panel } });
    assert.equal(textOf(result), 'The person answered the panel:\nTrip\nBy train: yes\nFood: Figs');
  });
});

test('a 2026-07-28 client over stateless HTTP, with no ledger passed: the panel is recorded and answered', async (t) => {
  const handler = createMcpHttpHandler({ appHtml: '<!doctype html><title>panel</title>', allowAnonymous: true });
  const server = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await handler.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const client = new Client(
    { name: 'modern-host', version: '1.0.0' },
    { capabilities: APPS, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  t.after(() => client.close());
  const agent = new Model(client);
  const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: panel } });
  const panelId = (shown._meta as { viewUUID: string }).viewUUID;
  const host: PanelHost = {
    callServerTool: (params) => client.callTool(params),
    sendMessage: async ({ content }) => (agent.read(content[0]!.text), {}),
    updateModelContext: async () => ({}),
    getHostVersion: () => ({ name: 'host' }),
  };
  const view = new PanelSession(host, { onChange: () => undefined, locale: () => 'en', dismissedText: (title) => title });
  await view.result((shown.structuredContent as { model: never }).model, panelId);
  assert.equal(view.phase.kind, 'open', 'every request of the panel reads the same ledger');
  await view.submit(values);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await agent.told(panelId);
  assert.deepEqual(agent.actedOn, ['Trip\nBy train: yes\nFood: Figs']);
});
