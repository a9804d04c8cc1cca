export * from './elements.js';
// The shipped card bodies themselves; the drop-in bundle leaves them out (it loads them as chunks).
export { createPageBody, CreatePageBodySchema } from './action-card/kinds/createPage.js';
export { scheduleFollowUpBody, ScheduleFollowUpBodySchema } from './action-card/kinds/scheduleFollowUp.js';
