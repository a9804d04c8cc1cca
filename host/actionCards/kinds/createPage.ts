import * as z from 'zod/mini';
import type { CardKind, CardKindContext } from '../../types.js';

/** Where created pages live. The demo and tests use `createMemoryPageStore`; a product plugs in its own. */
export interface PageStore {
  /** Creates a page and returns its id and address; rejects `PageLimitError` when no more fit. */
  create(input: { title: string; sections: readonly string[]; sourceCallId: string }): Promise<{ pageId: string; url: string }>;
  /** Whether the page still exists (it may have been deleted outside the session). */
  exists(pageId: string): Promise<boolean>;
  /** The page made from a card, if one was made (lets reconcile finish an interrupted create). */
  findBySource(sourceCallId: string): Promise<{ pageId: string; url: string } | undefined>;
}

export class PageLimitError extends Error {
  override name = 'PageLimitError';
}

/** `details` of a create_page card: the page title and its section headings. */
export const CreatePageDetailsSchema = z.strictObject({
  pageTitle: z.string().check(z.trim(), z.minLength(1, 'must not be blank'), z.maxLength(120)),
  sections: z.array(z.string().check(z.minLength(1), z.maxLength(120))).check(z.minLength(1), z.maxLength(12)),
});
export type CreatePageDetails = z.infer<typeof CreatePageDetailsSchema>;

const SKILL = `Use when the answer is worth keeping as a page the user can reopen and edit (a plan, a guide, notes).
After answering, call propose_action once with:
- action: "create_page"
- title: short card title, e.g. "Save as a page"
- brief: one sentence saying what the page will contain
- details: { "pageTitle": string (≤120 chars), "sections": string[] (1–12 section headings taken from your answer) }
Do not offer it for short or throwaway answers.`;

/** An in-memory page store (demo, tests). */
export function createMemoryPageStore(options: { limit?: number } = {}): PageStore & { delete(pageId: string): void } {
  const pages = new Map<string, { url: string; source: string }>();
  let next = 1;
  return {
    async create({ sourceCallId }) {
      if (pages.size >= (options.limit ?? 1000)) throw new PageLimitError('page limit reached');
      const pageId = `page-${next++}`;
      const url = `/pages/${pageId}`;
      pages.set(pageId, { url, source: sourceCallId });
      return { pageId, url };
    },
    async exists(pageId) {
      return pages.has(pageId);
    },
    async findBySource(sourceCallId) {
      for (const [pageId, page] of pages) if (page.source === sourceCallId) return { pageId, url: page.url };
      return undefined;
    },
    delete(pageId) {
      pages.delete(pageId);
    },
  };
}

/**
 * The `create_page` kind ("create a page from this answer"). Verb `create` (writes) records
 * `creating`, then `created` with the page's id and address, or `failed`. Reconcile finishes a create
 * that was interrupted and notices a page deleted outside the session (`deleted`).
 * Own refusal reason: `page-limit`.
 */
export function createPageKind(options: { pages?: PageStore } = {}): CardKind {
  const pages = options.pages ?? createMemoryPageStore();
  return {
    action: 'create_page',
    skill: { name: 'create-page', text: SKILL },
    invitation: 'In one sentence in the user’s language, invite them to save this answer as a page with the card.',
    details: CreatePageDetailsSchema,
    dismissibleIn: ['failed'],
    statusGuidance: 'A created page is a private draft the user opens from the card; mention its address only if asked.',
    reportedFields: ['pageId', 'url', 'error'],
    async reconcile(ctx: CardKindContext) {
      if (ctx.phase === 'creating') {
        const page = await pages.findBySource(ctx.callId);
        if (page !== undefined) ctx.record('created', page);
      } else if (ctx.phase === 'created') {
        const pageId = typeof ctx.data?.['pageId'] === 'string' ? ctx.data['pageId'] : undefined;
        if (pageId !== undefined && !(await pages.exists(pageId))) ctx.record('deleted', { pageId });
      }
    },
    verbs: {
      create: {
        checks: ['writes'],
        async handler(ctx) {
          if (ctx.phase === 'created' || ctx.phase === 'creating') return { status: 'settled' };
          if (ctx.phase !== 'proposed' && ctx.phase !== 'failed' && ctx.phase !== 'deleted')
            return { status: 'refused', reason: 'unavailable' };
          const details = CreatePageDetailsSchema.parse(ctx.card.details);
          ctx.record('creating');
          try {
            const page = await pages.create({ title: details.pageTitle, sections: details.sections, sourceCallId: ctx.callId });
            ctx.record('created', page);
            return { status: 'accepted' };
          } catch (error) {
            if (error instanceof PageLimitError) {
              ctx.record('failed', { error: 'page-limit' });
              return { status: 'refused', reason: 'page-limit' };
            }
            ctx.record('failed', { error: 'store-error' });
            return { status: 'unconfirmed' };
          }
        },
      },
    },
  };
}
