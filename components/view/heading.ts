import { html, nothing, type TemplateResult } from 'lit';

/** A heading level an embedding page may ask for: 1–6; anything else reads as `fallback`. */
export function headingLevel(value: unknown, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 6 ? n : fallback;
}

/**
 * A native `h1`–`h6` of `level` (capped at 6, `dir="auto"`: it holds model text) around `content`: the page decides where the
 * element's headings sit in its outline (axe heading-order), with no template built from strings.
 */
export function heading(
  level: number,
  content: unknown,
  options: { id?: string; className?: string; title?: string } = {},
): TemplateResult {
  const id = options.id ?? nothing;
  const cls = options.className ?? nothing;
  const title = options.title ?? nothing;
  switch (Math.min(6, Math.max(1, level))) {
    case 1:
      return html`<h1 dir="auto" id=${id} class=${cls} title=${title}>${content}</h1>`;
    case 2:
      return html`<h2 dir="auto" id=${id} class=${cls} title=${title}>${content}</h2>`;
    case 3:
      return html`<h3 dir="auto" id=${id} class=${cls} title=${title}>${content}</h3>`;
    case 4:
      return html`<h4 dir="auto" id=${id} class=${cls} title=${title}>${content}</h4>`;
    case 5:
      return html`<h5 dir="auto" id=${id} class=${cls} title=${title}>${content}</h5>`;
    default:
      return html`<h6 dir="auto" id=${id} class=${cls} title=${title}>${content}</h6>`;
  }
}
