import { registerCardBody } from '../bodies.js';
import { createPageBody } from './createPage.js';
import { scheduleFollowUpBody } from './scheduleFollowUp.js';

export { createPageBody, CreatePageBodySchema } from './createPage.js';
export { scheduleFollowUpBody, ScheduleFollowUpBodySchema } from './scheduleFollowUp.js';

/** Registers the bodies of the two shipped kinds; returns one disposer for both. */
export function registerShippedCardBodies(): () => void {
  const disposers = [registerCardBody(createPageBody), registerCardBody(scheduleFollowUpBody)];
  return () => disposers.forEach((dispose) => dispose());
}
