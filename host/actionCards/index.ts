// PLACEHOLDER until the action-cards issue lands: the service contract createHost wires in.
import type { ActRequest, ActResult, ActionCardsView } from '../../protocol/index.js';
import type { ActionCardsService, CardKind, HostPluginApi, RecordDecisionInput } from '../types.js';

export interface ActionCardsOptions {
  /** Queued next-turn user messages at or above which propose_action refuses. Default 2. */
  queuedMessageLimit?: number;
}

/** Creates the action-cards service on a host through its plugin API. */
export function createActionCardsService(api: HostPluginApi, _options: ActionCardsOptions = {}): ActionCardsService {
  void api;
  return {
    register: (_kind: CardKind) => () => {},
    act: async (_input: ActRequest): Promise<ActResult> => ({ status: 'refused', reason: 'unavailable' }),
    view: (): ActionCardsView => ({ proposals: [], decisions: {} }),
    record: (_input: RecordDecisionInput) => { throw new Error('action cards not implemented yet'); },
  };
}
