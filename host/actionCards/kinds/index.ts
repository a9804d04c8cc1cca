export {
  createPageKind,
  createMemoryPageStore,
  CreatePageDetailsSchema,
  PageLimitError,
  type PageStore,
  type CreatePageDetails,
} from './createPage.js';
export {
  scheduleFollowUpKind,
  createMemoryFollowUps,
  ScheduleFollowUpDetailsSchema,
  type FollowUpScheduler,
  type ScheduleFollowUpDetails,
} from './scheduleFollowUp.js';
