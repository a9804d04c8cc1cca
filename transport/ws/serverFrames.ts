import type { SessionId } from '../../protocol/ids.js';
import type { WireErrorCode } from '../../protocol/wire.js';
import { WIRE_ERROR_CODES, WIRE_ID_MAX_LENGTH } from '../../protocol/wireConstants.js';

/*
 * The shape of a server frame, read by hand: the client routes a frame by these fields before its
 * schema checks (clientChecks.ts, a chunk of the drop-in bundle) look at the payload.
 */

export type ServerFrame =
  | { type: 'result'; id: string; result: unknown }
  | { type: 'error'; id: string | null; code: WireErrorCode; message: string; retryAfterMs?: number }
  | { type: 'session.view'; sessionId: SessionId; view: unknown };

const isId = (value: unknown): value is string => typeof value === 'string' && value.length >= 1 && value.length <= WIRE_ID_MAX_LENGTH;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const only = (frame: Record<string, unknown>, keys: string[]): string | null => {
  const extra = Object.keys(frame).filter((k) => !keys.includes(k));
  return extra.length === 0 ? null : `unknown field${extra.length === 1 ? '' : 's'} ${extra.map((k) => `"${k}"`).join(', ')}`;
};

/** The frame, or why it is not one a server sends. */
export function readServerFrame(json: unknown): { ok: true; frame: ServerFrame } | { ok: false; problem: string } {
  if (!isObject(json)) return { ok: false, problem: 'a frame must be a JSON object' };
  const fail = (problem: string) => ({ ok: false as const, problem });
  switch (json.type) {
    case 'result': {
      const extra = only(json, ['type', 'id', 'result']);
      if (extra) return fail(extra);
      if (!isId(json.id)) return fail('id: expected a string of 1–128 characters');
      return { ok: true, frame: { type: 'result', id: json.id, result: json.result } };
    }
    case 'error': {
      const extra = only(json, ['type', 'id', 'code', 'message', 'retryAfterMs']);
      if (extra) return fail(extra);
      if (json.id !== null && !isId(json.id)) return fail('id: expected null or a string of 1–128 characters');
      if (!(WIRE_ERROR_CODES as readonly unknown[]).includes(json.code))
        return fail(`code: expected one of ${WIRE_ERROR_CODES.join(', ')}`);
      if (typeof json.message !== 'string') return fail('message: expected string');
      const wait = json.retryAfterMs;
      if (wait !== undefined && !(Number.isSafeInteger(wait) && (wait as number) >= 0))
        return fail('retryAfterMs: expected a whole number ≥ 0');
      const frame = { type: 'error' as const, id: json.id, code: json.code as WireErrorCode, message: json.message };
      return { ok: true, frame: wait === undefined ? frame : { ...frame, retryAfterMs: wait as number } };
    }
    case 'session.view': {
      const extra = only(json, ['type', 'sessionId', 'view']);
      if (extra) return fail(extra);
      if (!isId(json.sessionId)) return fail('sessionId: expected a string of 1–128 characters');
      return { ok: true, frame: { type: 'session.view', sessionId: json.sessionId as SessionId, view: json.view } };
    }
    default:
      return fail('type: expected "result", "error" or "session.view"');
  }
}
