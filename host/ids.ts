import {
  mintCallId,
  mintInboxItemId,
  mintMessageId,
  mintRpcId,
  mintSessionId,
  mintTaskSurfaceId,
  mintTurnId,
  type CallId,
  type InboxItemId,
  type MessageId,
  type RpcId,
  type SessionId,
  type TaskSurfaceId,
  type TurnId,
} from '../protocol/index.js';
import type { CreateHostOptions } from './types.js';

/** The id minters of one host (random UUIDs unless the options give deterministic ones). */
export interface HostIds {
  session(): SessionId;
  call(): CallId;
  message(): MessageId;
  surface(): TaskSurfaceId;
  rpc(): RpcId;
  item(): InboxItemId;
  turn(): TurnId;
}

/** The host's minters: each one given in `ids` (branded as is), else a random UUID minter. */
export function resolveIds(ids: CreateHostOptions['ids'] = {}): HostIds {
  const pick = <T>(custom: (() => string) | undefined, fallback: () => T) => (custom ? () => custom() as T : fallback);
  return {
    session: pick(ids.session, mintSessionId),
    call: pick(ids.call, mintCallId),
    message: pick(ids.message, mintMessageId),
    surface: pick(ids.surface, mintTaskSurfaceId),
    rpc: pick(ids.rpc, mintRpcId),
    item: pick(ids.item, mintInboxItemId),
    turn: pick(ids.turn, mintTurnId),
  };
}

/** Mints tried before `freshId` gives up: a minter that keeps repeating used ids is broken. */
export const FRESH_ID_ATTEMPTS = 1000;

/**
 * The first id from `mint` that is not in use: minted ids must never reopen a session or
 * collide with a live row, and a deterministic minter restarts from 1 after a restart. Throws after
 * `FRESH_ID_ATTEMPTS` used ids in a row (a minter that returns a constant, say) instead of spinning.
 */
export function freshId<T>(what: string, mint: () => T, isUsed: (id: T) => boolean): T {
  for (let attempt = 0; attempt < FRESH_ID_ATTEMPTS; attempt++) {
    const id = mint();
    if (!isUsed(id)) return id;
  }
  throw new Error(`the ${what} id minter returned ${FRESH_ID_ATTEMPTS} ids in a row that are already in use`);
}
