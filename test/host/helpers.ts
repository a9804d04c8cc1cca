// Test helpers: a sample model, a scripted agent driver, deterministic ids and hosts per store.
// Browser-safe (component tests import them); node-only fixtures live in fixture.ts.
import { createHost } from '../../host/createHost.js';
import type { AgentDriver, AgentTurn, CreateHostOptions, Host } from '../../host/types.js';
import type {
  JsonValue,
  MessageId,
  RpcId,
  SessionId,
  TaskSurfaceDismissalId,
  TaskSurfaceId,
  TaskSurfaceSubmissionId,
} from '../../protocol/index.js';
import type { StoreHandle } from './stores.js';

export const sampleModel = (title = 'Pick a plan'): JsonValue => ({
  version: 1,
  title,
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Choose one plan and order the steps.' }] }],
  fields: [
    {
      kind: 'choice',
      id: 'plan',
      label: 'Plan',
      options: [
        { id: 'a', label: 'Plan A' },
        { id: 'b', label: 'Plan B' },
      ],
    },
    { kind: 'text', id: 'why', label: 'Why', required: true },
  ],
  submit: { label: 'Send' },
});

export const goodValues = { plan: 'a', why: 'cheaper' };

export type TurnScript = (turn: AgentTurn) => Promise<void> | void;

/**
 * A driver that runs the next queued script for each turn (or just replies 'ok'). `showSurface`
 * scripts one turn that calls show_task_surface.
 */
export class ScriptedDriver implements AgentDriver {
  readonly scripts: TurnScript[] = [];
  readonly turns: AgentTurn[] = [];

  then(script: TurnScript): this {
    this.scripts.push(script);
    return this;
  }

  showSurface(model: JsonValue = sampleModel(), options?: Parameters<AgentTurn['callTool']>[2]): this {
    return this.then(async (turn) => {
      turn.step();
      await turn.callTool('show_task_surface', { model }, options);
    });
  }

  async runTurn(turn: AgentTurn): Promise<void> {
    this.turns.push(turn);
    const script = this.scripts.shift();
    if (script) await script(turn);
    else {
      turn.step();
      turn.reply('ok');
    }
  }
}

/** Deterministic ids: `prefix-1`, `prefix-2`, … */
export function counterIds(): NonNullable<CreateHostOptions['ids']> {
  const counters = new Map<string, number>();
  const next = (prefix: string) => () => {
    const n = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, n);
    return `${prefix}-${n}`;
  };
  return {
    session: next('session'),
    call: next('call'),
    message: next('msg'),
    surface: next('surface'),
    rpc: next('rpc'),
    item: next('item'),
    turn: next('turn'),
  };
}

export function makeHost(handle: StoreHandle, options: Partial<CreateHostOptions> = {}): Host {
  let now = 1_000;
  return createHost({ store: handle.store, clock: () => now++, ids: counterIds(), ...options });
}

let unique = 0;
export const ids = {
  submission: (): TaskSurfaceSubmissionId => `sub-${++unique}` as TaskSurfaceSubmissionId,
  dismissal: (): TaskSurfaceDismissalId => `dis-${++unique}` as TaskSurfaceDismissalId,
  message: (): MessageId => `umsg-${++unique}` as MessageId,
  rpc: (): RpcId => `urpc-${++unique}` as RpcId,
};

/** Sends an ordinary user message. */
export function say(host: Host, sessionId: SessionId, text: string) {
  return host.session.send({ sessionId, messageId: ids.message(), rpcId: ids.rpc(), text });
}

/** Opens a session and shows a surface in it (the first turn, started by a user message). */
export async function withOpenSurface(host: Host, driver: ScriptedDriver, model?: JsonValue) {
  const sessionId = host.openSession({ title: 'T' });
  driver.showSurface(model);
  await say(host, sessionId, 'please show a form');
  await host.whenIdle(sessionId);
  const active = host.getView(sessionId).taskSurface.active;
  if (!active) throw new Error('the scripted turn did not open a surface');
  return { sessionId, surfaceId: active.surfaceId as TaskSurfaceId, callId: active.callId };
}

/** With `autoAdmit: false`: claims and commits the next row, then waits for the turn it starts. */
export async function admitNext(host: Host, sessionId: SessionId) {
  const claim = host.inbox.claimNext(sessionId);
  if (!claim) throw new Error('nothing to claim');
  const event = claim.commit();
  await host.whenIdle(sessionId);
  return event;
}

/** With `autoAdmit: false`: a session whose first turn showed a surface. */
export async function manualSurface(host: Host, driver: ScriptedDriver, model?: JsonValue) {
  const sessionId = host.openSession({ title: 'T' });
  driver.showSurface(model);
  await say(host, sessionId, 'please show a form');
  await admitNext(host, sessionId);
  const active = host.getView(sessionId).taskSurface.active;
  if (!active) throw new Error('the scripted turn did not open a surface');
  return { sessionId, surfaceId: active.surfaceId as TaskSurfaceId, callId: active.callId };
}

/**
 * A driver whose turns run until `release()` (the turn replies "done") or until they are cancelled;
 * `running` settles when the first turn starts.
 */
export function heldDriver(): { driver: AgentDriver; running: Promise<void>; release(): void } {
  let started = () => {};
  let release = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  const driver: AgentDriver = {
    runTurn: (turn) =>
      new Promise<void>((resolve) => {
        started();
        release = () => {
          turn.reply('done');
          resolve();
        };
        turn.signal.addEventListener('abort', () => resolve());
      }),
  };
  return { driver, running, release: () => release() };
}
