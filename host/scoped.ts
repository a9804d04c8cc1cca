import {
  ActRequestSchema,
  DismissTaskSurfaceRequestSchema,
  GetActiveTaskSurfaceRequestSchema,
  GetTaskSurfaceOutcomeRequestSchema,
  PrincipalSchema,
  SendMessageRequestSchema,
  SubmitTaskSurfaceRequestSchema,
  UpdateQueueRequestSchema,
  type DismissTaskSurfaceResult,
  type Principal,
  type SendMessageResult,
  type SessionId,
  type SubmitTaskSurfaceResult,
} from '../protocol/index.js';
import { parseInput, UnknownSessionError } from './errors.js';
import { forkInput, readLogInput, sessionIdInput } from './inputs.js';
import { isSystem, type SessionAccess, type SessionPolicy } from './principal.js';
import type { PrincipalLimits } from './limits/index.js';
import type { Host, OpenSessionOptions, ScopedHost } from './types.js';

export interface ScopedHostDeps {
  host: Host;
  principal: Principal;
  policy: SessionPolicy;
  report(error: Error): void;
  /** The session's owner; null when it has none or does not exist. */
  owner(sessionId: SessionId): string | null;
  open(options: OpenSessionOptions, owner?: string): SessionId;
  fork(sessionId: SessionId, options: Parameters<Host['fork']>[1], owner?: string): SessionId;
  send(input: unknown, by?: string): Promise<SendMessageResult>;
  submit(input: unknown, by?: string): Promise<SubmitTaskSurfaceResult>;
  dismiss(input: unknown, by?: string): Promise<DismissTaskSurfaceResult>;
  /** The Host's per-principal limits: what this principal may own and store. */
  limits: Pick<PrincipalLimits, 'checkOwn' | 'storageFull' | 'storedBytes'>;
  /** Sessions a sharing policy shares with the principal (see `CreateHostOptions.sharedSessions`). */
  shared?(principal: Principal): Iterable<SessionId>;
}

/**
 * The Host as one principal sees it. Every call on a session first validates its input, then asks
 * the policy (for a missing session too, with `owner: null`), and only then looks at the session: a
 * session the policy refuses is answered exactly like a missing one. `read` access is a read-only
 * session for this principal. The system principal is not asked about: it may do everything.
 */
export function scopedHost(deps: ScopedHostDeps): ScopedHost {
  const { host } = deps;
  const system = isSystem(deps.principal);
  const principal = system ? deps.principal : parseInput('host.as', PrincipalSchema, deps.principal);
  const by = system ? undefined : principal.id;

  /** What the policy grants, before existence decides anything, so it is asked the same way either way. */
  const granted = (sessionId: SessionId): SessionAccess => {
    let answer: SessionAccess = 'none';
    try {
      answer = deps.policy(principal, { sessionId, owner: deps.owner(sessionId) });
    } catch (error) {
      deps.report(error instanceof Error ? error : new Error(String(error)));
    }
    return answer === 'read' || answer === 'write' ? answer : 'none';
  };
  const access = (sessionId: SessionId, grant?: SessionAccess): SessionAccess => {
    if (system) return host.hasSession(sessionId) ? 'write' : 'none';
    const answer = grant ?? granted(sessionId);
    if (answer === 'none') return 'none';
    return host.hasSession(sessionId) ? answer : 'none';
  };
  /** Throws as the Host does for a missing session unless the principal may at least read it. */
  const readable = (sessionId: SessionId): SessionId => {
    if (access(sessionId) === 'none') throw new UnknownSessionError(sessionId);
    return sessionId;
  };

  const scoped: ScopedHost = {
    principal,
    access: (sessionId) => access(sessionIdInput('access', sessionId)),
    hasSession: (sessionId) => access(sessionIdInput('hasSession', sessionId)) !== 'none',
    openSession(options = {}) {
      // A principal never names the id: naming an existing one would reopen someone else's session.
      const { sessionId: _ignored, ...rest } = options as OpenSessionOptions;
      if (_ignored !== undefined) throw new TypeError('openSession: a principal cannot choose the session id');
      if (!system) deps.limits.checkOwn(principal.id);
      return deps.open(rest, by);
    },
    // A session the policy refuses is answered as missing (and the policy is asked either way).
    async load(sessionId) {
      const id = sessionIdInput('load', sessionId);
      // The policy first, once, for a session whose record here names its owner: a refused one is never
      // read in (nor, in a cluster, acquired). Otherwise it is asked after the load, with what it found.
      const before = system || deps.owner(id) === null ? undefined : granted(id);
      if (before === 'none') return false;
      const found = await host.load(id);
      return access(id, before) !== 'none' && found;
    },
    whenDurable: (sessionId) => host.whenDurable(sessionIdInput('whenDurable', sessionId)),
    listSessions() {
      if (system) return host.listSessions();
      // The owner index (O(own sessions)), then what a sharing policy names; never a scan of everyone's.
      const listed = host.listSessionsOf(principal.id).filter((summary) => access(summary.sessionId) !== 'none');
      const seen = new Set(listed.map((summary) => summary.sessionId));
      for (const sessionId of deps.shared?.(principal) ?? []) {
        if (seen.has(sessionId) || access(sessionId) === 'none') continue;
        seen.add(sessionId);
        listed.push(host.sessionSummary(sessionId));
      }
      return listed;
    },
    sessionSummary: (sessionId) => host.sessionSummary(readable(sessionIdInput('sessionSummary', sessionId))),
    getView: (sessionId) => host.getView(readable(sessionIdInput('getView', sessionId))),
    watchSession(sessionId, listener) {
      return host.watchSession(readable(sessionIdInput('watchSession', sessionId)), listener);
    },
    async readLog(sessionId, options) {
      const id = sessionIdInput('readLog', sessionId);
      const opts = readLogInput(options);
      return host.readLog(readable(id), opts);
    },
    fork(sessionId, options) {
      const id = sessionIdInput('fork', sessionId);
      const opts = forkInput(options);
      // The copy counts against the forker's sessions and stored bytes.
      const source = readable(id);
      if (!system) deps.limits.checkOwn(principal.id, deps.limits.storedBytes(source));
      return deps.fork(source, opts, by);
    },
    session: {
      async send(input) {
        const request = parseInput('session.send', SendMessageRequestSchema, input);
        const granted = access(request.sessionId);
        if (granted === 'none') return { accepted: false, reason: 'unknown-session' };
        if (granted === 'read') return { accepted: false, reason: 'read-only' };
        return deps.send(request, by);
      },
      async updateQueue(input) {
        const request = parseInput('session.updateQueue', UpdateQueueRequestSchema, input);
        if (access(request.sessionId) !== 'write') return { ok: false, reason: 'queue-item-not-found' };
        return host.session.updateQueue(request);
      },
    },
    taskSurface: {
      async getActive(input) {
        const request = parseInput('taskSurface.getActive', GetActiveTaskSurfaceRequestSchema, input);
        if (access(request.sessionId) === 'none') return { active: false, reason: 'not-open' };
        return host.taskSurface.getActive(request);
      },
      async getOutcome(input) {
        const request = parseInput('taskSurface.getOutcome', GetTaskSurfaceOutcomeRequestSchema, input);
        if (access(request.sessionId) === 'none') return { status: 'unknown' };
        return host.taskSurface.getOutcome(request);
      },
      async submit(input) {
        const request = parseInput('taskSurface.submit', SubmitTaskSurfaceRequestSchema, input);
        if (access(request.sessionId) !== 'write') return { accepted: false, reason: 'not-open' };
        return deps.submit(request, by);
      },
      async dismiss(input) {
        const request = parseInput('taskSurface.dismiss', DismissTaskSurfaceRequestSchema, input);
        if (access(request.sessionId) !== 'write') return { dismissed: false, reason: 'not-open' };
        return deps.dismiss(request, by);
      },
    },
    actionCards: {
      async act(input) {
        const request = parseInput('actionCards.act', ActRequestSchema, input);
        const granted = access(request.sessionId);
        if (granted === 'none') return { status: 'refused', reason: 'unknown' };
        // A verb records a decision: a session (or owner) at its byte limit takes no more.
        if (!system && deps.limits.storageFull(request.sessionId)) return { status: 'refused', reason: 'quota-exceeded' };
        return host.actionCards.act(request, { initiator: principal, canWrite: granted === 'write' });
      },
    },
  };
  return scoped;
}
