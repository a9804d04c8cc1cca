import { SYSTEM_PRINCIPAL } from '../../host/principal.js';
import type { CardKindContext } from '../../host/types.js';
import type { CallId, SessionEvent, SessionId } from '../../protocol/index.js';

/**
 * A kind context as an older caller builds it: no `data` (the type keeps it optional for them).
 * `recorded` collects the phases the kind records through it.
 */
export function olderContext(card: CardKindContext['card'], phase: string) {
  const recorded: string[] = [];
  const ctx: CardKindContext = {
    sessionId: 's1' as SessionId,
    callId: 'c1' as CallId,
    card,
    initiator: SYSTEM_PRINCIPAL,
    phase,
    record(recordedPhase) {
      recorded.push(recordedPhase);
      return {} as SessionEvent;
    },
    signal: new AbortController().signal,
  };
  return { ctx, recorded };
}
