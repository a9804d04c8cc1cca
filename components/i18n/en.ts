import { SUBMISSION_WORDS, type SubmissionWords } from '../../protocol/format.js';
import { intlFor } from './intl.js';

const { n, p } = intlFor('en');

/**
 * English chrome, and the shape of every other table (`Strings`): counts arrive as numbers and each
 * table writes them with its own language's digits and plural forms (see `intlFor`).
 */
export const en = {
  /** After a required field's label, parentheses included (full-width in zh). */
  required: '(required)',
  requiredMissing: 'Fill in this field before submitting.',
  tableRegion: (rows: number) => p(rows, { one: 'Table, # row', other: 'Table, # rows' }),
  showingRows: (shown: number, total: number) => `Showing ${n(shown)} of ${n(total)} rows`,
  showAllRows: (total: number) => `Show all ${n(total)} rows`,
  yes: 'Yes',
  no: 'No',
  empty: 'empty',
  newFile: 'New file',
  diffOf: (path: string) => `Changes to ${path}`,
  diffUntitled: 'Changes',
  diffCounts: (added: number, removed: number) => `${n(added)} added, ${n(removed)} removed`,
  noChanges: 'No changes',
  diffTooLarge: 'This change is too large to compare line by line here, so the file is shown as it was before and after.',
  diffBefore: 'Before',
  diffAfter: 'After',
  diffSizes: (before: number, after: number) =>
    `${p(before, { one: '# line', other: '# lines' })} before, ${p(after, { one: '# line', other: '# lines' })} after`,
  showingLines: (shown: number, total: number) => `Showing ${n(shown)} of ${n(total)} lines`,
  showMoreLines: (count: number) => p(count, { one: 'Show # more line', other: 'Show # more lines' }),
  noticeTone: { neutral: 'Note', info: 'Information', warning: 'Warning' },
  on: 'On',
  off: 'Off',
  noAnswer: 'No answer',
  noneSelected: 'None selected',
  moveItemUp: (label: string) => `Move ${label} up`,
  moveItemDown: (label: string) => `Move ${label} down`,
  /** Keys are joined with U+2060 (word joiner) so "Alt+↑/↓" never breaks across lines. */
  orderHint:
    'Drag an item by its handle or use its arrow buttons. With the keyboard, press Alt+\u2060↑\u2060/\u2060↓ to move the focused item.',
  moved: (label: string, position: number, total: number) => `Moved ${label} to position ${n(position)} of ${n(total)}.`,
  cannotMove: (label: string, position: number, total: number) => `${label} is already at position ${n(position)} of ${n(total)}.`,
  contextRegion: 'Details',
  dismiss: 'Dismiss',
  collapse: 'Collapse',
  expand: 'Expand',
  dockLabel: (title: string) => `Task: ${title}`,
  /** The Dock's own chrome beyond the basics above. */
  dock: {
    retrying: 'Could not reach the agent to load the task. Trying again…',
    verifying: 'The connection dropped. Checking whether the agent received it…',
    waiting: 'The agent is waiting for your answer.',
    /** The status of a panel the agent is still writing (read-only preview), said once. */
    writing: 'The agent is still writing this panel. You can read it; you can answer once it is complete.',
    fullHeight: 'Full height',
    showDetails: 'Show details',
    hideDetails: 'Hide details',
    addNote: 'Add a note',
    removeNote: 'Hide the note',
    noteLabel: 'Note for the agent (optional)',
    noteHint: 'Sent with your answers.',
    tooLarge: (used: number, limit: number) =>
      `Your answers and note are too long to send (${n(used)} of ${n(limit)} bytes). Shorten them and try again.`,
  },
  loading: 'Loading the task…',
  submitting: 'Sending…',
  pending: { queued: 'Sent. Waiting for the agent to pick it up.', claiming: 'Sent. The agent is reading your answer.' },
  dismissing: 'Dismissing…',
  rejected: {
    'not-open': 'This task is no longer open, so your answer was not sent.',
    stale: 'This task changed before your answer arrived. Check your answers and try again.',
    'invalid-submission': 'Some answers do not fit this task. Check them and try again.',
    'submission-pending': 'An answer to this task is already on its way.',
    'quota-exceeded': 'You have reached your usage limit for now, so your answer was not sent. It is kept; try again later.',
    'too-busy': 'The agent is already working on several of your chats. Your answers are kept; try again when one finishes.',
    transport: 'Could not reach the agent. Your answers are kept; try again.',
  },
  dismissRejected: {
    'not-open': 'This task is no longer open.',
    stale: 'This task changed; it was not dismissed.',
    'submission-pending': 'An answer is on its way, so the task cannot be dismissed now.',
    transport: 'Could not reach the agent to dismiss the task; try again.',
  },
  status: { open: 'Open', submitted: 'Submitted', dismissed: 'Dismissed', bypassed: 'Answered in chat', closed: 'Closed' },
  statusLabel: 'Status',
  showReplay: 'Show the task',
  answerInDock: 'Answer in the panel below.',
  hideReplay: 'Hide the task',
  taskSurface: 'Task',
  /** The action card's chrome; a kind's own labels live in its browser body. */
  card: {
    suggested: 'Suggested action:',
    notNow: 'Not now',
    actions: 'Card actions',
    status: 'Status:',
    working: 'Working…',
    phase: { proposed: 'Not started', dismissed: 'Dismissed', replaced: 'Replaced by a newer suggestion' } as Partial<
      Record<string, string>
    >,
    /** The service's own refusal reasons (`ActRefusalReason`); anything else reads as `unavailable`. */
    reason: {
      closing: 'The agent is shutting down. Try again in a moment.',
      'not-live-root': 'This conversation is not active right now. Reopen it and try again.',
      unknown: 'This card is no longer known to the conversation.',
      unavailable: 'This action is not available right now.',
      'access-denied': 'You do not have permission to do this here.',
      'read-only': 'This conversation is read-only, so this action cannot run.',
      'quota-exceeded': 'You have reached your usage limit for now. Try again later.',
      'too-busy': 'The agent is already working on several of your chats. Try again when one finishes.',
    },
    unconfirmed: 'The result could not be confirmed yet. Check back shortly.',
    transport: 'Could not reach the agent. Try again.',
    unsupported: 'This card cannot be shown here.',
    loadingBody: 'Loading the card…',
  },
  /**
   * A request refused by one of the server's limits (a `TransportError` whose code is a `LimitCode`;
   * docs/security.md), and `busy`: the server kept answering busy past the client's `busyRetries`.
   */
  limit: {
    'quota-exceeded': 'You have reached your usage limit for now (chats, messages or stored data). Try again later.',
    'too-busy': 'The agent is already working on several of your chats. Try again when one finishes.',
    'too-many-connections': 'Too many windows or tabs are connected for you. Close one and try again.',
    busy: 'The service is too busy to answer right now. Nothing was lost; try again in a moment.',
  },
  /** The words the submitted answer is written with (the user message the agent reads). */
  submission: SUBMISSION_WORDS.en as SubmissionWords,
};

export type Strings = typeof en;
