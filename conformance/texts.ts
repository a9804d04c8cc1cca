/*
 * The texts a scenario expects, written out here rather than imported from the code under test: a
 * path that changes a word the model reads fails the kit. Where the specs give the words
 * (action-cards-readme.md, "What the model sees") they are copied verbatim; the rest are the Host's.
 */

/** action-cards-readme.md: an accepted call's result is this prefix plus the kind's invitation. */
export const CARD_SHOWN = 'Card shown below your answer. Do not restate it. ';
/** action-cards-readme.md: refused texts. */
export const ONE_CARD_PER_TURN = 'One card per turn; the earlier card stands.';
export const QUEUED_MORE = 'The user has queued more messages; show no card and answer briefly.';
export const loadSkillFirst = (skill: string): string => `Load skill ${skill} first, then call propose_action.`;
export const unknownAction = (action: string, actions: readonly string[]): string =>
  `Unknown action "${action}". Registered actions: ${actions.length > 0 ? actions.join(', ') : 'none'}.`;
/** action-cards-readme.md: the status notice's preamble and closing line (a curly apostrophe). */
export const NOTICE_PREAMBLE =
  'Latest status of action cards from user actions and background work. These are status facts, not a request to start or retry work. Use these receipts instead of the earlier proposal when describing progress.';
export const NOTICE_CONTINUE = 'Continue with the user’s current request.';

/** The Host's: a call after show_task_surface in the same turn (the show concluded it). */
export const TURN_CONCLUDED = 'The turn has concluded (a human checkpoint); no further tool calls run in it.';
/** The Host's: show_task_surface in a code-only profile. */
export const SHOW_FROM_CODE =
  'show_task_surface cannot be called from code: a nested call cannot carry its panel to the conversation. Call it directly as a tool.';
/** The Host's: a call of a tool the profile does not offer (show_task_surface and propose_action in code-only mode). */
export const notOffered = (tool: string): string => `No tool named ${tool} is available in this session.`;
/** The Host's: propose_action in a code-only profile. */
export const CARD_FROM_CODE = 'Cards are proposed by direct calls only, not from code.';

/**
 * task-surface-proposal.md: "The Native result names the Surface and explains that an ordinary
 * message bypasses it when the client cannot render the panel." The Host's words for it.
 */
export const shownText = (surfaceId: string, title: string): string =>
  `Task surface ${JSON.stringify(title)} (${surfaceId}) is now shown to the user; your turn ends here. ` +
  'Their answer will arrive as the next user message. If their client cannot show the panel, they can reply ' +
  'with an ordinary message instead, which closes the surface.';

/** The create-page kind's invitation (host/actionCards/kinds/createPage.ts). */
export const CREATE_PAGE_INVITATION = 'In one sentence in the user’s language, invite them to save this answer as a page with the card.';
