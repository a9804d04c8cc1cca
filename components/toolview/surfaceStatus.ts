import type { TaskSurfaceOutcome, TaskSurfaceValues } from '../../protocol/index.js';

/**
 * What became of a surface, as the Host's fold of the log says. `closed`: it is not open and the
 * Host has no record of how it closed (its result is not in the session's effective log).
 */
export type SurfaceStatus = 'open' | 'submitted' | 'dismissed' | 'bypassed' | 'closed';

export interface SurfaceOutcome {
  status: SurfaceStatus;
  /** The submitted values, when `submitted`. */
  values?: TaskSurfaceValues;
}

/** The row's status for the Host's answer to `taskSurface.getOutcome`. */
export function surfaceOutcomeOf(outcome: TaskSurfaceOutcome): SurfaceOutcome {
  switch (outcome.status) {
    case 'submitted':
      return { status: 'submitted', values: outcome.values as TaskSurfaceValues };
    case 'unknown':
      return { status: 'closed' };
    default:
      return { status: outcome.status };
  }
}
