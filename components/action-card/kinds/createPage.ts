import { html, nothing } from 'lit';
import * as z from 'zod/mini';
import { displayText } from '../../view/text.js';
import type { CardBody } from '../bodies.js';

/** The browser's own schema for create_page `details` (the Host checks its own; they change together). */
export const CreatePageBodySchema = z.object({
  pageTitle: z.string().check(z.minLength(1), z.maxLength(120)),
  sections: z.array(z.string()).check(z.minLength(1), z.maxLength(12)),
});

/** Only web addresses become links; anything else stays text. */
function safeHref(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const { protocol } = new URL(url, document.baseURI);
    return protocol === 'http:' || protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Browser body of `create_page`: the page title, its sections, and a link once created. */
export const createPageBody: CardBody<z.infer<typeof CreatePageBodySchema>> = {
  action: 'create_page',
  details: CreatePageBodySchema,
  verbs: [{ verb: 'create', label: { en: 'Create page', zh: '创建页面' }, phases: ['proposed', 'failed', 'deleted'], primary: true }],
  dismissibleIn: ['failed'],
  phases: {
    creating: { en: 'Creating the page…', zh: '正在创建页面…' },
    created: { en: 'Page created', zh: '页面已创建' },
    failed: { en: 'The page could not be created', zh: '页面创建失败' },
    deleted: { en: 'The page was deleted', zh: '页面已被删除' },
  },
  reasons: {
    'page-limit': { en: 'You have reached the page limit. Delete a page and try again.', zh: '页面数量已达上限。请删除一个页面后重试。' },
  },
  render(details, { lang, phase, data }) {
    const href = phase === 'created' ? safeHref(data['url']) : undefined;
    return html`
      <p dir="auto"><strong>${displayText(details.pageTitle)}</strong></p>
      <ul aria-label=${lang === 'zh' ? '页面章节' : 'Page sections'}>${details.sections.map((s) => html`<li dir="auto">${displayText(s)}</li>`)}</ul>
      ${href === undefined ? nothing : html`<p><a href=${href} target="_blank" rel="noopener noreferrer">${lang === 'zh' ? '打开页面' : 'Open the page'}</a></p>`}`;
  },
};
