import type MarkdownIt from 'markdown-it';
import { html, type TemplateResult } from 'lit';
import { lazyModule } from '../shared/lazy.js';
import { heading } from '../view/heading.js';
import { displayText } from '../view/text.js';

/** How image syntax renders: `render` shows http(s) images; `alt-only` shows only their alt text. */
export type RemoteImages = 'render' | 'alt-only';

export interface MarkdownOptions {
  /** Default `alt-only`: nothing is requested unless the caller asks for `render`. */
  remoteImages?: RemoteImages;
  /** Added to every heading level (capped at 6), so `#` sits below the embedding page's headings. */
  headingOffset?: number;
}

type Parser = InstanceType<typeof MarkdownIt>;
type Token = ReturnType<Parser['parse']>[number];
type Part = TemplateResult | string | Part[];

/**
 * markdown-it with raw HTML off and no linkify or typographer: text is never turned into markup.
 * It is loaded on first use (its own chunk in the drop-in bundle).
 */
const markdownIt = lazyModule(async () => {
  const { default: MarkdownItClass } = await import('markdown-it');
  return new MarkdownItClass({ html: false, linkify: false, typographer: false });
});

/** Loads the markdown parser now (it loads by itself on the first render that needs it). */
export async function loadMarkdown(): Promise<void> {
  await markdownIt.load();
}

/**
 * The URL to link to when `href` is an absolute http(s) URL; otherwise null, and the link renders
 * as its plain text. Relative, `javascript:`, `data:`, `mailto:` and every other scheme are refused.
 */
export function safeHttpUrl(href: string | null | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Renders markdown as Lit templates by walking markdown-it's tokens. Only the elements written
 * below can appear (p, h1–h6, ul, ol, li, blockquote, pre, code, hr, br, strong, em, s, a, table
 * parts, and img in `render` mode), text goes through Lit's escaping, and no string is ever parsed
 * as HTML, so the output is safe under Trusted Types. Links open in a new tab only when clicked.
 */
export function renderMarkdown(text: string, options: MarkdownOptions = {}): TemplateResult {
  const headingOffset = options.headingOffset ?? 0;
  const ctx: Ctx = { remoteImages: options.remoteImages === 'render' ? 'render' : 'alt-only', headingOffset, lastHeading: headingOffset };
  const parser = markdownIt.get();
  // Until the parser has loaded: the source as plain, wrapped text (elements render again on load).
  if (!parser) return html`<div class="md-pending" dir="auto">${displayText(text)}</div>`;
  return html`${walk(parser.parse(text, {}), 0, ctx)[0]}`;
}

interface Ctx {
  remoteImages: RemoteImages;
  headingOffset: number;
  /** The level of the last heading rendered (the offset before the first). */
  lastHeading: number;
}

/**
 * A heading's level: its markdown level plus the offset, but never more than one below the heading
 * before it, so model text that starts at `###` or jumps from `#` to `###` still gives the page an
 * outline without gaps (axe heading-order).
 */
function headingLevelOf(token: Token, ctx: Ctx): number {
  const level = Math.min(Number(token.tag.slice(1)) + ctx.headingOffset, ctx.lastHeading + 1);
  ctx.lastHeading = level;
  return level;
}

/** Renders tokens from `i` until the close token of the enclosing element; returns the next index. */
function walk(tokens: Token[], i: number, ctx: Ctx): [Part[], number] {
  const parts: Part[] = [];
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (token.nesting === -1) return [parts, i + 1];
    if (token.nesting === 1) {
      const [children, next] = walk(tokens, i + 1, ctx);
      parts.push(element(token, children, ctx));
      i = next;
      continue;
    }
    parts.push(leaf(token, ctx));
    i++;
  }
  return [parts, i];
}

function element(token: Token, c: Part[], ctx: Ctx): Part | Part[] {
  switch (token.type) {
    case 'paragraph_open':
      return token.hidden ? c : html`<p dir="auto">${c}</p>`;
    case 'heading_open':
      return heading(headingLevelOf(token, ctx), c);
    case 'bullet_list_open':
      return html`<ul>${c}</ul>`;
    case 'ordered_list_open': {
      const start = Number(token.attrGet('start') ?? 1);
      return html`<ol start=${Number.isFinite(start) ? start : 1}>${c}</ol>`;
    }
    case 'list_item_open':
      return html`<li dir="auto">${c}</li>`;
    case 'blockquote_open':
      return html`<blockquote dir="auto">${c}</blockquote>`;
    case 'table_open':
      // Focusable, as code blocks are: a wide table scrolls, and a keyboard must reach it.
      return html`<div class="md-table" tabindex="0"><table>${c}</table></div>`;
    case 'thead_open':
      return html`<thead>${c}</thead>`;
    case 'tbody_open':
      return html`<tbody>${c}</tbody>`;
    case 'tr_open':
      return html`<tr>${c}</tr>`;
    case 'th_open':
      return html`<th scope="col" dir="auto">${c}</th>`;
    case 'td_open':
      return html`<td dir="auto">${c}</td>`;
    case 'strong_open':
      return html`<strong>${c}</strong>`;
    case 'em_open':
      return html`<em>${c}</em>`;
    case 's_open':
      return html`<s>${c}</s>`;
    case 'link_open': {
      const href = safeHttpUrl(String(token.attrGet('href') ?? ''));
      return href === null ? c : html`<a href=${href} target="_blank" rel="noopener noreferrer" referrerpolicy="no-referrer">${c}</a>`;
    }
    default:
      return c; // an element outside the allowed set keeps only its text
  }
}

function leaf(token: Token, ctx: Ctx): Part | Part[] {
  switch (token.type) {
    case 'inline':
      return walk(token.children ?? [], 0, ctx)[0];
    case 'text':
      return displayText(token.content);
    case 'softbreak':
      return '\n';
    case 'hardbreak':
      return html`<br />`;
    case 'code_inline':
      return html`<code>${displayText(token.content)}</code>`;
    case 'fence':
    case 'code_block':
      // Focusable: a long line scrolls sideways, and a keyboard user must be able to scroll it.
      return html`<pre tabindex="0"><code>${token.content}</code></pre>`;
    case 'hr':
      return html`<hr />`;
    case 'image': {
      const alt = plainText(token.children ?? []);
      const src = ctx.remoteImages === 'render' ? safeHttpUrl(String(token.attrGet('src') ?? '')) : null;
      return src === null ? alt : html`<img src=${src} alt=${alt} loading="lazy" referrerpolicy="no-referrer" />`;
    }
    default:
      return token.content; // html_inline / html_block (never produced with html: false) stay text
  }
}

/** The text of inline tokens without markup (an image's alt text). */
function plainText(tokens: Token[]): string {
  return tokens.map((t) => (t.children ? plainText(t.children) : t.type === 'softbreak' ? ' ' : t.content)).join('');
}
