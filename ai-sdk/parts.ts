/*
 * Which parts a user message may carry into an app's chat (issue 37): text, and what the app opts
 * into: `file` parts only from origins it names (the model's SDK fetches a file part's URL, so an
 * unchecked one makes the server fetch whatever the page chose), and its own part types.
 */

/** What a user message may carry besides text. */
export interface TaskSurfaceUserParts {
  /** `file` parts, whose URL must be on one of `origins` (`https://files.example.com`); none without it. */
  files?: { origins: readonly string[] } | undefined;
  /** The app's own part types a page may send (`data-…`); never the parts the server writes. */
  types?: readonly string[] | undefined;
}

/** Why the parts are refused, as a sentence; null when every part is allowed. */
export function refusedPart(parts: readonly { type: string; url?: unknown }[], allowed: TaskSurfaceUserParts = {}): string | null {
  const origins = new Set((allowed.files?.origins ?? []).map((o) => originOf(o) ?? o.toLowerCase()));
  const types = new Set(['text', ...(allowed.types ?? [])]);
  for (const part of parts) {
    if (types.has(part.type)) continue;
    if (part.type !== 'file' || !allowed.files) {
      const kinds = ['text', ...(allowed.files ? ['file'] : []), ...(allowed.types ?? [])].join(', ');
      return `a user message may carry only these parts here: ${kinds}; not "${part.type.slice(0, 64)}"`;
    }
    const origin = originOf(part.url);
    if (origin === null || !origins.has(origin)) return `a file part's URL must be on one of: ${[...origins].join(', ')}`;
  }
  return null;
}

/** The origin of a URL string, lower case; null for anything else (`data:` URLs included). */
function originOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const origin = new URL(url).origin.toLowerCase();
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
