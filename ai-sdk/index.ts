/*
 * `task-surface/ai-sdk`: the Task Surface inside an AI SDK app, on the app's own `UIMessage[]`.
 * Server and page alike (browser-safe; `ai` is an optional peer). The React layer is `/ai-sdk/react`.
 */
export { taskSurfaceTools, taskSurfaceStopWhen } from './tools.js';
export type {
  ShowTaskSurfaceFailure,
  ShowTaskSurfaceOutput,
  ShowTaskSurfaceSuccess,
  TaskSurfaceCardTools,
  TaskSurfaceTools,
  TaskSurfaceToolsOptions,
} from './tools.js';
export { actionCardTools, type ActionCardToolOutput, type ActionCardToolsOptions } from './cardTools.js';
export { actionCardsNotice, foldActionCards, taskSurfaceDataPart, withActionCardsNotice, type ActionCardsState } from './cards.js';
export {
  ActionCardActRequestSchema,
  createActionCardActs,
  decisionsOf,
  withDecision,
  type ActionCardActAnswer,
  type ActionCardActRequest,
  type ActionCardActs,
  type ActionCardActsOptions,
} from './act.js';
export {
  ACTION_CARD_DECISION_PART,
  ACTION_CARDS_NOTICE_PART,
  ActionCardDecisionDataSchema,
  ActionCardsNoticeDataSchema,
  type ActionCardDecisionData,
  type ActionCardDecisionPart,
  type ActionCardsNoticeData,
} from './cardMessages.js';
export { foldTaskSurface } from './fold.js';
export { mergeChatMessages } from './merge.js';
export type { ClosedTaskSurface, OpenTaskSurface, TaskSurfaceState } from './fold.js';
export { checkTaskSurfaceMessage, dismissTaskSurface, taskSurfaceSubmissionMessage, TaskSurfaceDismissalRequestSchema } from './checks.js';
export type {
  TaskSurfaceDismissalRequest,
  TaskSurfaceDismissalResult,
  TaskSurfaceMessageCheck,
  TaskSurfaceMessageRejection,
  TaskSurfaceSubmissionRequest,
} from './checks.js';
export { actionCardActResponse, taskSurfaceCheckResponse, taskSurfaceDismissalResponse } from './route.js';
export {
  TASK_SURFACE_DISMISSAL_PART,
  TaskSurfaceDismissalDataSchema,
  TaskSurfaceSubmissionMetadataSchema,
  taskSurfaceEvents,
} from './messages.js';
export type { TaskSurfaceDismissalData, TaskSurfaceSubmissionMetadata } from './messages.js';
export type { TaskSurfaceUserParts } from './parts.js';
export { createChatTaskSurface } from './chat.js';
export type { ChatTaskSurface, ChatTaskSurfaceOptions, TaskSurfaceChat, TaskSurfaceDismissal, TaskSurfaceWaiting } from './chat.js';
