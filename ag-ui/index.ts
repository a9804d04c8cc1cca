/*
 * task-surface/ag-ui: the panel and the cards in an AG-UI app (CopilotKit's frontends, agents behind
 * AG-UI middlewares). The server side runs each AG-UI run over the Host (`createAgUiRoutes`,
 * `startRun`); the page side is a `HostTransport` over the AG-UI agent (`createAgUiTaskSurface`).
 * See docs/ag-ui.md.
 */
export {
  CARD_ACTIVITY,
  PANEL_ACTIVITY,
  PREVIEW_ACTIVITY,
  activitiesOf,
  cardActivityId,
  contentPatch,
  panelActivityId,
  previewActivityId,
  type Activity,
  type CardActivityContent,
  type PanelActivityContent,
  type PanelStatus,
  type PreviewActivityContent,
} from './activity.js';
export {
  ANSWER_METADATA_KEY,
  AgUiInputError,
  TaskSurfaceAnswerSchema,
  parseRunInput,
  type AgUiInputReason,
  type TaskSurfaceAnswer,
} from './input.js';
export { startRun, type AgUiHost, type AgUiRun, type AgUiRunOptions } from './run.js';
export {
  AgUiActRequestSchema,
  AgUiDismissRequestSchema,
  createAgUiRoutes,
  type AgUiActResponse,
  type AgUiDismissResponse,
  type AgUiRoutes,
  type AgUiRoutesOptions,
} from './routes.js';
export { createAgUiTaskSurface, withActivities, type AgUiAgentLike, type AgUiTaskSurface, type AgUiTaskSurfaceOptions } from './page.js';
