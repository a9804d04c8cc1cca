/*
 * The MCP App path with the real panel: the model and server side is `mcpDriver`'s (the package's
 * MCP server through the official SDK `Client`, the driver as the host's chat), and the person is
 * played in the real panel (mcp/app/, the built app document) in Chromium behind ext-apps'
 * `AppBridge` (fixtures/mcp/harness.ts, a bare `sandbox="allow-scripts"` iframe). The panel's
 * app-only tool calls reach the conversation's server; its `ui/message` joins the chat and starts
 * the model's turn. The person fills the fields and presses the button (a double click for the same
 * submission twice at once); a retry of a submission or dismissal the panel already sent is the
 * iframe re-rendered, which replays what the server recorded. Node-only; Chromium starts on the
 * first conversation, one page for all of them.
 */
import type { Browser, Frame } from 'playwright-core';
import { VIEW_TOOL } from '../../mcp/constants.js';
import { parseTaskSurfaceModel } from '../../protocol/parse.js';
import type { JsonValue } from '../../protocol/json.js';
import type { ConformanceDriver, Conversation, ConversationOptions, DismissOutcome, SubmitOutcome } from '../driver.js';
import { mcpDriver, MCP_SUPPORTS, type McpConversation } from './mcp.js';
import type { McpHarness } from '../../fixtures/mcp/harness.js';

type Shown = NonNullable<ReturnType<McpConversation['shownCall']>>;

/** What the person cannot do in the MCP panel (NO_NOTE): add a note; such a submission goes as `mcp-app` sends it. */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T | undefined>, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    await sleep(25);
  }
  throw new Error(`the MCP panel in Chromium: timed out waiting for ${what}`);
}

/** The panel's phase (`document.body.dataset.phase`) and its problem line. */
const phaseOf = (frame: Frame) =>
  frame.evaluate(() => ({
    phase: document.body.dataset['phase'] ?? '',
    problem: document.querySelector('main .problem')?.textContent?.trim() ?? '',
    busy: document.querySelector('task-surface-view')?.hasAttribute('disabled') ?? false,
    // Only a panel that could not reach its server offers a retry button of its own beside the view.
    unreachable: document.querySelector('main > button') !== null,
  }));

/** The harness, one per driver: started with the first conversation. */
function harnessOnce(browser?: Browser): { get(): Promise<McpHarness>; close(): Promise<void> } {
  let started: Promise<McpHarness> | undefined;
  return {
    get: () => (started ??= import('../../fixtures/mcp/harness.js').then(({ startMcpHarness }) => startMcpHarness(browser))),
    async close() {
      if (started) await (await started).close();
      started = undefined;
    },
  };
}

async function viewConversation(harness: McpHarness, options: ConversationOptions): Promise<Conversation & McpConversation> {
  const base = (await mcpDriver.open(options)) as Conversation & McpConversation;
  /** The pending chat turns the panel's messages started: an answer settles once they ran. */
  let turns = Promise.resolve();
  harness.route({
    callTool: (params) => base.callTool(params),
    message: (text) => {
      const turn = base.say(text).then(() => undefined);
      turns = turns.then(() => turn);
      return turn;
    },
  });
  const hostContext = { theme: 'light', locale: options.locale, displayMode: 'inline', availableDisplayModes: ['inline'] };
  let mounted: { shown: Shown; frame: Frame } | null = null;
  /** Submissions and dismissals the panel sent, by the scenario's id: a retry replays them. */
  const done = new Map<string, { shown: Shown; outcome: SubmitOutcome | DismissOutcome }>();
  const pending = new Map<string, { double: boolean; work: Promise<SubmitOutcome> }>();

  /** The panel settled: not preparing, not busy. */
  const settled = (frame: Frame) =>
    until(async () => {
      const seen = await phaseOf(frame);
      return ['waiting', 'preparing', ''].includes(seen.phase) || seen.busy ? undefined : seen;
    }, 'the panel to settle');

  const mount = async (surfaceId?: string): Promise<Frame | null> => {
    const shown = base.shownCall(surfaceId);
    if (!shown) return null;
    if (mounted?.shown !== shown) mounted = { shown, frame: await harness.mount('bare', shown, hostContext) };
    return mounted.frame;
  };
  const rerender = async () => {
    if (!mounted) return;
    mounted.frame = await harness.reload('bare', mounted.shown, hostContext);
    await settled(mounted.frame);
  };

  /** Fills the kit panel's fields as a person does: a radio clicked, text typed, a switch pressed. */
  const fill = async (frame: Frame, shown: Shown, values: Record<string, JsonValue>) => {
    const parsed = parseTaskSurfaceModel((shown.input as { model: unknown }).model);
    if (!parsed.ok) throw new Error('the shown model does not parse');
    for (const [index, field] of (parsed.model.fields ?? []).entries()) {
      const value = values[field.id];
      if (field.kind === 'choice' && typeof value === 'string')
        await frame.locator(`[role="radio"][data-field="${index}"][data-value="${value}"]`).click();
      else if (field.kind === 'text')
        await frame.locator(`input[data-field="${index}"], textarea[data-field="${index}"]`).fill(String(value ?? ''));
      else if (field.kind === 'toggle') {
        const button = frame.locator(`[role="switch"][data-field="${index}"]`);
        if (((await button.getAttribute('aria-checked')) === 'true') !== (value === true)) await button.click();
      } else if (value !== undefined) throw new Error(`the driver cannot fill a ${field.kind} field`);
    }
  };

  /** Values a person cannot enter in the panel (an option it does not offer): only the server can be sent them. */
  const enterable = (shown: Shown, values: Record<string, JsonValue>) => {
    const parsed = parseTaskSurfaceModel((shown.input as { model: unknown }).model);
    return (
      parsed.ok &&
      (parsed.model.fields ?? []).every(
        (f) => f.kind !== 'choice' || values[f.id] === undefined || f.options.some((o) => o.id === values[f.id]),
      )
    );
  };

  const closedOutcome = (phase: string): { accepted: false; reason: string } => ({
    accepted: false,
    reason: phase === 'unknown' ? 'stale' : 'not-open',
  });

  const press = async (submissionId: string, values: Record<string, JsonValue>, surfaceId?: string): Promise<SubmitOutcome> => {
    const frame = await mount(surfaceId);
    if (!frame || !mounted) return { accepted: false, reason: 'not-open' };
    const shown = mounted.shown;
    const before = await settled(frame);
    if (before.phase !== 'open') return closedOutcome(before.phase);
    await fill(frame, shown, values);
    const button = frame.locator('task-surface-view button.primary');
    if (pending.get(submissionId)?.double) await button.dblclick();
    else {
      await button.focus();
      await harness.page.keyboard.press('Enter');
    }
    const after = await until(async () => {
      const seen = await phaseOf(frame);
      if (seen.phase === 'open' && (seen.busy || !seen.problem)) return undefined;
      if (seen.phase === 'submitted') {
        const state = (await base.callTool({
          name: VIEW_TOOL,
          arguments: { action: 'read', viewId: (shown.result._meta as { viewUUID?: string }).viewUUID },
        })) as {
          structuredContent?: { channel?: string | null };
        };
        if (!['message', 'answer-tool'].includes(state.structuredContent?.channel ?? '')) return undefined;
      }
      return seen;
    }, 'the answer to settle');
    await turns;
    if (after.phase === 'submitted') return { accepted: true };
    // The server refused the values (the panel's "refused" line, no retry button): invalid-submission.
    if (after.phase === 'open')
      return { accepted: false, reason: after.unreachable ? `unreachable: ${after.problem}` : 'invalid-submission' };
    return closedOutcome(after.phase);
  };

  const conversation: Conversation & McpConversation = Object.assign(Object.create(base) as Conversation & McpConversation, {
    submit({ submissionId, values, note, surfaceId }: Parameters<Conversation['submit']>[0]): Promise<SubmitOutcome> {
      const running = pending.get(submissionId);
      if (running) {
        running.double = true;
        return running.work;
      }
      const previous = done.get(submissionId);
      if (previous)
        return (async () => {
          // The person's retry: the host renders the panel again, and it replays the recorded answer.
          if (mounted?.shown !== previous.shown) await mount(surfaceId);
          await rerender();
          const seen = await phaseOf(mounted!.frame);
          return seen.phase === 'submitted' ? (previous.outcome as SubmitOutcome) : closedOutcome(seen.phase);
        })();
      const shown = base.shownCall(surfaceId);
      // A note (NO_NOTE) or values the panel offers no way to enter go to the server as mcpDriver sends them.
      if (note || (shown && !enterable(shown, values)))
        return base.submit({ submissionId, values, ...(note ? { note } : {}), ...(surfaceId ? { surfaceId } : {}) });
      const entry = { double: false, work: Promise.resolve<SubmitOutcome>({ accepted: true }) };
      pending.set(submissionId, entry);
      entry.work = (async () => {
        await sleep(0); // a second press of the same answer (a double click) joins before the first
        const outcome = await press(submissionId, values, surfaceId);
        if (outcome.accepted && mounted) done.set(submissionId, { shown: mounted.shown, outcome });
        return outcome;
      })().finally(() => pending.delete(submissionId));
      return entry.work;
    },
    async dismiss({ dismissalId, surfaceId }: Parameters<Conversation['dismiss']>[0]): Promise<DismissOutcome> {
      const previous = done.get(dismissalId);
      if (previous) {
        if (mounted?.shown !== previous.shown) await mount(surfaceId);
        await rerender();
        const seen = await phaseOf(mounted!.frame);
        return seen.phase === 'dismissed' ? (previous.outcome as DismissOutcome) : { dismissed: false, reason: 'not-open' };
      }
      const frame = await mount(surfaceId);
      if (!frame || !mounted) return { dismissed: false, reason: 'not-open' };
      if ((await settled(frame)).phase !== 'open') return { dismissed: false, reason: 'not-open' };
      await frame.locator('task-surface-view button.secondary').click();
      const after = await until(async () => {
        const seen = await phaseOf(frame);
        return seen.phase === 'open' && (seen.busy || !seen.problem) ? undefined : seen;
      }, 'the dismissal to settle');
      const outcome: DismissOutcome = after.phase === 'dismissed' ? { dismissed: true } : { dismissed: false, reason: 'not-open' };
      if (outcome.dismissed) done.set(dismissalId, { shown: mounted.shown, outcome });
      return outcome;
    },
    async reload() {
      await base.reload();
      await rerender();
    },
    async restart() {
      await base.restart();
      await rerender();
    },
    /** The latest panel, rendered in its iframe and settled (for a test that types in it itself). */
    async panel(): Promise<Frame | null> {
      const frame = await mount();
      if (frame) await settled(frame);
      return frame;
    },
    /** The typed values the panel shows now (text inputs), for a check that a draft survived. */
    async typed(): Promise<string[]> {
      if (!mounted) return [];
      return mounted.frame
        .locator('task-surface-view input[type="text"]')
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    },
    async close() {
      await harness.unmount().catch(() => undefined);
      harness.route(null);
      await base.close();
    },
  });
  return conversation;
}

/** The MCP App path with the real panel in Chromium (`browser`: a shared one, else launched on the first conversation). */
export function mcpViewDriver(browser?: Browser): ConformanceDriver & { harness(): Promise<McpHarness> } {
  const harness = harnessOnce(browser);
  return {
    path: 'mcp-app-view',
    description:
      'The same MCP server and chat as `mcp-app`, the person played in the real panel (the built app document) in Chromium behind ext-apps’ `AppBridge`: fields filled, the button pressed, the iframe re-rendered for a reload or a retry.',
    coverage:
      'in `en`, and the five where the person acts in the panel (`surface.double-submit`, `surface.retry-same-ids`, `surface.dismiss`, `surface.dismiss-then-submit`, `surface.reload`) in every language: one Chromium runs the file in about a minute on two cores, and every scenario in every language would take about two and a half, most of the kit’s three-minute budget, for scenarios the panel adds nothing to (limits, code mode). A note, which the panel has no field for, and values it offers no way to enter (`surface.invalid`) go to the server as `mcp-app` sends them',
    supports: MCP_SUPPORTS,
    harness: harness.get,
    open: async (options) => viewConversation(await harness.get(), options),
    dispose: harness.close,
  };
}
