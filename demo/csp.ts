/** Trusted Types policies the page may create: lit-html's, for its template HTML. */
export const TRUSTED_TYPES_POLICIES = ['lit-html'];

/**
 * The demo page's Content-Security-Policy: scripts only from this origin (no inline script, no
 * eval), styles only from this origin and constructed style sheets, the WebSocket back to this host,
 * Trusted Types required for every DOM script sink. `host` is the request's Host, already checked
 * (a strict `host[:port]`: it cannot add a directive).
 */
export function contentSecurityPolicy(host: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ws://${host} wss://${host}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
    `trusted-types ${TRUSTED_TYPES_POLICIES.join(' ')}`,
  ].join('; ');
}
