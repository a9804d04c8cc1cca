/*
 * The Host's per-principal limits (docs/security.md): what one principal may own, store, send and
 * run at once. The checks answer before anything changes; the model-call gate makes calls wait.
 */
import { LimitExceededError, type PrincipalLimitRefusal, type SessionId } from '../../protocol/index.js';
import type { SessionLogStore } from '../store/types.js';
import type { AgentDriver, AgentTurn } from '../types.js';
import { ModelCallGate } from './modelCalls.js';
import type { Quotas } from './options.js';
import { MessageRate } from './rate.js';

export { DEFAULT_QUOTAS, resolveQuotas, type QuotaOptions, type Quotas } from './options.js';
export { ModelCallGate } from './modelCalls.js';
export { MessageRate } from './rate.js';
export type { SharedMessageRate } from './admission.js';

export interface PrincipalLimitsDeps {
  store: SessionLogStore;
  quotas: Quotas;
  clock?: () => number;
  /** The session's owner (null: host code's session). */
  ownerOf(sessionId: SessionId): string | null;
  /** The session has a turn running or a message waiting for one. */
  busy(sessionId: SessionId): boolean;
  /** The session's view changed (a model call of its turn started or stopped waiting). */
  publish(sessionId: SessionId): void;
}

/** Why a message was refused: a send's or a submission's answer without its `accepted`. */
export type MessageRefusal = Omit<PrincipalLimitRefusal, 'accepted'>;

/** A refused message as its sender's answer: the reason, the limit's sentence, and when to retry if waiting helps. */
export const refusal = (refused: MessageRefusal): PrincipalLimitRefusal => ({ accepted: false, ...refused });

export interface PrincipalLimits {
  readonly quotas: Quotas;
  /** Throws `quota-exceeded` when `owner` may not own one more session (`sessions`, or `principal-bytes` with `adding`). */
  checkOwn(owner: string, adding?: number): void;
  /** A message sent by `by` to a session: null when allowed (it counts), else why not (nothing counted). */
  admitMessage(by: string, sessionId: SessionId): MessageRefusal | null;
  /** `admitMessage` but the rate: the session's bytes and the owner's turns (a turn admitted counts). */
  checkMessage(by: string, sessionId: SessionId): MessageRefusal | null;
  /** The refusal of a message past the rate, `waitMs` before the principal may send again. */
  rateRefusal(waitMs: number): MessageRefusal;
  /** The session's log, or its owner's logs together, are at their byte limit: it takes no more input. */
  storageFull(sessionId: SessionId): MessageRefusal | null;
  /** UTF-8 bytes of the session's stored log (what a fork of it copies). */
  storedBytes(sessionId: SessionId): number;
  /** `driver` with every `turn.modelCall` through the model-call gate. */
  gate(driver: AgentDriver): AgentDriver;
  /** A model call of the session's turn waits for a slot. */
  waiting(sessionId: SessionId): boolean;
}

const MiB = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** The Host's limits over its store (see PrincipalLimits). */
export function createPrincipalLimits(deps: PrincipalLimitsDeps): PrincipalLimits {
  const { store, quotas } = deps;
  const rate = new MessageRate(quotas.messagesPerMinute, deps.clock);
  const calls = new ModelCallGate(quotas.modelCallsPerPrincipal, quotas.modelCalls, deps.publish);
  /** Each owner's sessions admitted to run a turn; pruned of idle ones when looked at. */
  const running = new Map<string, Set<SessionId>>();

  const principalBytes = (owner: string) => store.listSessionsOf(owner).reduce((n, s) => n + s.bytes, 0);

  const rateRefusal = (wait: number): MessageRefusal => ({
    reason: 'quota-exceeded',
    message: `this principal sent ${quotas.messagesPerMinute} message${quotas.messagesPerMinute === 1 ? '' : 's'} in the last minute (at most ${quotas.messagesPerMinute}); send again in ${Math.ceil(wait / 1000)} s`,
    retryAfterMs: wait,
  });

  const storageFull = (sessionId: SessionId): MessageRefusal | null => {
    const bytes = store.storedBytes(sessionId);
    if (bytes >= quotas.bytesPerSession) {
      const message = `this session's log holds ${MiB(bytes)} (at most ${MiB(quotas.bytesPerSession)}): it takes no more input; start a new session`;
      return { reason: 'quota-exceeded', message };
    }
    const owner = deps.ownerOf(sessionId);
    if (owner === null || quotas.bytesPerPrincipal === Infinity) return null;
    const total = principalBytes(owner);
    if (total < quotas.bytesPerPrincipal) return null;
    return {
      reason: 'quota-exceeded',
      message: `the sessions of this principal hold ${MiB(total)} (at most ${MiB(quotas.bytesPerPrincipal)}): they take no more input`,
    };
  };

  /** null when the owner may run one more turn in this session (it is then counted). */
  const admitTurn = (sessionId: SessionId): MessageRefusal | null => {
    const owner = deps.ownerOf(sessionId);
    if (owner === null || quotas.turnsPerPrincipal === Infinity) return null;
    let active = running.get(owner);
    if (active) for (const id of active) if (id !== sessionId && !deps.busy(id)) active.delete(id);
    if (active?.has(sessionId)) return null; // admitted already: a message more queues there
    // A turn host code started runs there already: the message queues behind it, and from now on that
    // turn counts against the owner, as one this message had started would.
    const runs = deps.busy(sessionId);
    if (!runs && active && active.size >= quotas.turnsPerPrincipal) {
      return {
        reason: 'too-busy',
        message: `${active.size === 1 ? '1 session of this principal is' : `${active.size} sessions of this principal are`} running a turn (at most ${quotas.turnsPerPrincipal}); send again when one finishes`,
        retryAfterMs: 1_000,
      };
    }
    if (!active) running.set(owner, (active = new Set()));
    active.add(sessionId);
    if (running.size > 10_000) for (const [key, set] of running) if ([...set].every((id) => !deps.busy(id))) running.delete(key);
    return null;
  };

  return {
    quotas,
    checkOwn(owner, adding = 0) {
      const owned = store.listSessionsOf(owner);
      if (owned.length >= quotas.sessionsPerPrincipal) {
        throw new LimitExceededError(
          'quota-exceeded',
          'sessions',
          `this principal already owns ${owned.length} sessions (at most ${quotas.sessionsPerPrincipal})`,
        );
      }
      const total = owned.reduce((n, s) => n + s.bytes, 0);
      if (total + adding > quotas.bytesPerPrincipal) {
        throw new LimitExceededError(
          'quota-exceeded',
          'principal-bytes',
          `the sessions of this principal hold ${MiB(total)}${adding ? ` and this adds ${MiB(adding)}` : ''} (at most ${MiB(quotas.bytesPerPrincipal)})`,
        );
      }
    },
    admitMessage(by, sessionId) {
      const refused = storageFull(sessionId) ?? admitTurn(sessionId);
      if (refused) return refused;
      const wait = rate.take(by);
      return wait === 0 ? null : rateRefusal(wait);
    },
    checkMessage: (_by, sessionId) => storageFull(sessionId) ?? admitTurn(sessionId),
    rateRefusal,
    storageFull,
    storedBytes: (sessionId) => store.storedBytes(sessionId),
    gate(driver) {
      const key = (sessionId: SessionId) => deps.ownerOf(sessionId) ?? `\u0000session:${sessionId}`;
      return {
        runTurn(turn) {
          const modelCall: AgentTurn['modelCall'] = (call) => calls.run(key(turn.sessionId), turn.sessionId, turn.signal, call);
          return driver.runTurn(Object.create(turn, { modelCall: { value: modelCall } }) as AgentTurn);
        },
      };
    },
    waiting: (sessionId) => calls.isWaiting(sessionId),
  };
}
