/*
 * Every text the model reads from the action-cards service. Where the spec gives words they are
 * copied verbatim; the rest follow the same short, imperative voice.
 */

import { issueText, type WireIssue as Issue } from '../../protocol/index.js';

const field = (prefix: string, issue: Issue): string => [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.');

const listIssues = (prefix: string, issues: readonly Issue[]): string =>
  issues.map((i) => `${field(prefix, i) || prefix || '(arguments)'}: ${issueText(i)}`).join('; ');

export const refusal = {
  /** Spec: the accepted result is this 49-character prefix plus the kind's invitation. */
  acceptedPrefix: 'Card shown below your answer. Do not restate it. ',
  onePerTurn: 'One card per turn; the earlier card stands.',
  queued: 'The user has queued more messages; show no card and answer briefly.',
  mainConversationOnly: 'Cards are offered in the main conversation only.',
  fromCode: 'Cards are proposed by direct calls only, not from code.',
  loadSkill: (skill: string) => `Load skill ${skill} first, then call propose_action.`,
  unknownAction: (action: string, actions: readonly string[]) =>
    `Unknown action "${action}". Registered actions: ${actions.length > 0 ? actions.join(', ') : 'none'}.`,
  blank: (title: boolean, brief: boolean) =>
    `${title && brief ? 'Title and brief must' : title ? 'Title must' : 'Brief must'} not be blank.`,
  badDetails: (issues: readonly Issue[]) => `Invalid details: ${listIssues('details', issues)}.`,
  badArguments: (issues: readonly Issue[]) => `Invalid arguments: ${listIssues('', issues)}.`,
};

/** Spec: the status notice's preamble and closing line (note the curly apostrophe). */
export const NOTICE_PREAMBLE =
  'Latest status of action cards from user actions and background work. These are status facts, not a request to start or retry work. Use these receipts instead of the earlier proposal when describing progress.';
export const NOTICE_CONTINUE = 'Continue with the user’s current request.';
