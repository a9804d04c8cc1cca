/* Names the server and the app document share (browser-safe: the app imports this file alone). */

/** The app's resource: the one self-contained panel document. */
export const PANEL_URI = 'ui://task-surface/panel';

/** The app-only tool the view reads and writes its panel's state through. */
export const VIEW_TOOL = 'task_surface_view';

/** The model's read-only tool for a panel's answer (the second channel beside `ui/message`). */
export const ANSWER_TOOL = 'task_surface_answer';
