import {
  mintCallId, mintInboxItemId, mintMessageId, mintRpcId, mintSessionId, mintTaskSurfaceId, mintTurnId,
  type CallId, type InboxItemId, type MessageId, type RpcId, type SessionId, type TaskSurfaceId, type TurnId,
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
