import { html, type TemplateResult } from 'lit';

/*
 * Model text is shown as the model wrote it, with two exceptions that only change what is drawn:
 * a run of combining marks longer than any script needs is cut (900 marks on one letter draw a
 * glyph thousands of pixels wide that no line break can split), and in names that must read
 * exactly (a file path), bidirectional control characters are shown as visible codes instead of
 * reordering the text around them. The full text stays available in a `title` attribute.
 */

/** Combining marks kept on one base character; scripts that stack marks use far fewer. */
export const MAX_COMBINING_MARKS = 8;

const RUNAWAY_MARKS = new RegExp(`(\\p{M}{${MAX_COMBINING_MARKS}})\\p{M}+`, 'gu');
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` with every run of combining marks cut to `MAX_COMBINING_MARKS`. */
export function clipMarks(text: string): string {
  return text.replace(RUNAWAY_MARKS, '$1');
}

/** `text` with bidirectional controls (U+202E and friends) written as visible codes, e.g. `⟨U+202E⟩`. */
export function visibleControls(text: string): string {
  return clipMarks(text).replace(BIDI_CONTROLS, (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Characters of a run without whitespace drawn before a break opportunity (`<wbr>`) is added. */
export const LONG_RUN_CHARS = 160;

const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS}}`, 'gu');
const HAS_LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS}}`, 'u');
const WBR = html`<wbr>`;

/**
 * `text` (marks clipped) as Lit parts with a `<wbr>` after every `LONG_RUN_CHARS` characters of a
 * run without whitespace. Chromium shapes such a run as one piece and shapes it again at every
 * line it wraps: 20,000 characters took 0.5 s to lay out, with a break opportunity every 500
 * characters 15 ms. `<wbr>` adds nothing to the text: copying and the accessible name are unchanged.
 */
export function displayText(text: string): string | (string | TemplateResult)[] {
  const clipped = clipMarks(text);
  if (!HAS_LONG_RUN.test(clipped)) return clipped;
  const parts: (string | TemplateResult)[] = [];
  let last = 0;
  for (const match of clipped.matchAll(LONG_RUN)) {
    const end = match.index + match[0].length;
    parts.push(clipped.slice(last, end), WBR);
    last = end;
  }
  parts.push(clipped.slice(last));
  return parts;
}
