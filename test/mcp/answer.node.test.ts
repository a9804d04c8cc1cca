// One answer, two channels: the view's `ui/message` (claimed, then accepted or rejected, through the
// app-only view tool) and the model's own read through `task_surface_answer`. Whichever reaches the
// model first delivers the answer; the other says it was already delivered. Through the official SDK
// Client over an in-memory pair, as a host that renders MCP Apps.
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { createMemoryStore } from '../../host/store/memory.js';
import { shownText, taskSurfaceAnswerTool } from '../../mcp/answerTool.js';
import { ANSWER_TOOL, VIEW_TOOL } from '../../mcp/constants.js';
import { createPanelLedger, type PanelLedger } from '../../mcp/ledger.js';
import { createTaskSurfaceMcpServer, type TaskSurfaceMcpServerOptions } from '../../mcp/server.js';
import { APPS, smallModel, textOf } from './helpers.js';

/** The server on an in-memory pair with a ledger of its own; the SDK client declares MCP Apps. */
export async function memoryClient(
  t: TestContext,
  options: Partial<TaskSurfaceMcpServerOptions> = {},
): Promise<{ client: Client; ledger: PanelLedger }> {
  const store = createMemoryStore();
  const ledger = options.ledger ?? createPanelLedger({ store });
  const server = createTaskSurfaceMcpServer({ appHtml: '<!doctype html><title>panel</title>', ...options, ledger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-host', version: '1.0.0' }, { capabilities: APPS });
  await client.connect(clientSide);
  t.after(async () => {
    await client.close();
    await server.close();
    if (!options.ledger) await ledger.close();
    store.close();
  });
  return { client, ledger };
}

type State = { status: string; channel?: string | null; delivered?: boolean; text?: string; alreadyDelivered?: boolean };

async function shownPanel(client: Client): Promise<string> {
  const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
  assert.notEqual(shown.isError, true, textOf(shown));
  return (shown._meta as { viewUUID: string }).viewUUID;
}

const view = async (client: Client, args: Record<string, unknown>) =>
  (await client.callTool({ name: VIEW_TOOL, arguments: args })).structuredContent as State;
const read = (client: Client, panelId: string) => client.callTool({ name: ANSWER_TOOL, arguments: { panelId } });

async function submitted(client: Client): Promise<string> {
  const viewId = await shownPanel(client);
  const state = await view(client, { action: 'submit', viewId, submissionId: 'sub-1', values: { db: 'pg', why: 'joins' } });
  assert.equal(state.status, 'submitted');
  assert.equal(state.channel, null, 'no channel has carried it yet');
  return viewId;
}

describe('task_surface_answer', () => {
  test('is listed read-only from its one declaration; the show result tells the model to call it', async (t) => {
    const { client } = await memoryClient(t);
    const { tools } = await client.listTools();
    const tool = tools.find((x) => x.name === ANSWER_TOOL);
    assert.ok(tool, 'listed');
    assert.equal(tool.description, taskSurfaceAnswerTool.description);
    assert.deepEqual(tool.inputSchema, taskSurfaceAnswerTool.inputSchema);
    assert.equal(tool.annotations?.readOnlyHint, true);
    const shown = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
    const viewId = (shown._meta as { viewUUID: string }).viewUUID;
    assert.equal(textOf(shown), shownText(viewId, 'Pick a database'));
    assert.match(textOf(shown), new RegExp(`call task_surface_answer with \\{"panelId": "${viewId}"\\}`));
    assert.doesNotMatch(textOf(shown), /closes the surface/, 'on this path an ordinary message does not close the panel');
  });

  test('says open, then dismissed; an unknown panel is an error naming the id', async (t) => {
    const { client } = await memoryClient(t);
    const viewId = await shownPanel(client);
    assert.match(
      textOf(await read(client, viewId)),
      /has not answered the panel "Pick a database" yet; it is still open\. If they say they did, their answer did not reach this server/,
    );
    await view(client, { action: 'dismiss', viewId, dismissalId: 'dis-1' });
    assert.match(textOf(await read(client, viewId)), /dismissed the panel "Pick a database" without answering/);
    const unknown = await read(client, 'no-such-panel');
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /No panel with the id "no-such-panel"/);
    const bad = await client.callTool({ name: ANSWER_TOOL, arguments: {} });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /arguments\.panelId/);
  });

  test('the message first: the tool then says the answer was already delivered, with its text', async (t) => {
    const { client } = await memoryClient(t);
    const viewId = await submitted(client);
    assert.equal((await view(client, { action: 'sending', viewId, submissionId: 'sub-1' })).channel, 'sending');
    const after = await view(client, { action: 'delivered', viewId, submissionId: 'sub-1' });
    assert.deepEqual([after.channel, after.delivered], ['message', true]);
    const result = await read(client, viewId);
    assert.equal((result.structuredContent as State).alreadyDelivered, true);
    assert.match(textOf(result), /already delivered to you as their chat message\. Act on it once/);
    assert.ok(textOf(result).endsWith(after.text!), 'the answer text, for a host that dropped the message');
  });

  test('the tool first: it delivers once; the view then finds the channel taken and sends nothing', async (t) => {
    const { client } = await memoryClient(t);
    const viewId = await submitted(client);
    const first = await read(client, viewId);
    assert.equal((first.structuredContent as State).alreadyDelivered, false);
    assert.match(textOf(first), /This is their answer; act on it now:\n\nPick a database\n/);
    const claim = await view(client, { action: 'sending', viewId, submissionId: 'sub-1' });
    assert.deepEqual([claim.channel, claim.delivered], ['answer-tool', true], 'the view is told the model has it');
    const again = await read(client, viewId);
    assert.equal((again.structuredContent as State).alreadyDelivered, true);
    assert.match(textOf(again), /already delivered to you through task_surface_answer/);
  });

  test('a rejected message is not delivered: the tool then delivers it', async (t) => {
    const { client } = await memoryClient(t);
    const viewId = await submitted(client);
    await view(client, { action: 'sending', viewId, submissionId: 'sub-1' });
    const rejected = await view(client, { action: 'rejected', viewId, submissionId: 'sub-1' });
    assert.deepEqual([rejected.channel, rejected.delivered], [null, false]);
    assert.equal(((await read(client, viewId)).structuredContent as State).alreadyDelivered, false);
  });

  test('a read while the message is under way, then a rejection: the read is the delivery', async (t) => {
    const { client } = await memoryClient(t);
    const viewId = await submitted(client);
    await view(client, { action: 'sending', viewId, submissionId: 'sub-1' });
    assert.equal(((await read(client, viewId)).structuredContent as State).alreadyDelivered, true);
    const rejected = await view(client, { action: 'rejected', viewId, submissionId: 'sub-1' });
    assert.deepEqual([rejected.channel, rejected.delivered], ['answer-tool', true], 'Send again would double it');
  });
});

describe('the MCP path in code-only mode', () => {
  test('with a ledger passed in, a call opens no panel and gets the Host refusal; neither tool is listed', async (t) => {
    const ledger = createPanelLedger({ store: createMemoryStore() });
    t.after(() => ledger.close());
    const { client } = await memoryClient(t, { ledger, toolMode: 'code' });
    const result = await client.callTool({ name: 'show_task_surface', arguments: { model: smallModel() } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /show_task_surface cannot be called from code/);
    assert.equal(result._meta, undefined, 'no viewUUID: no panel');
    const names = (await client.listTools()).tools.map((x) => x.name);
    assert.deepEqual(names, [VIEW_TOOL]);
  });
});
