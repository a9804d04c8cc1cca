// Constants of the wire protocol, apart from wire.ts (the schemas) so a browser client reads them without zod.

/** Largest client frame a server accepts by default, in bytes. */
export const WIRE_MAX_MESSAGE_BYTES = 256 * 1024;

/** Every `code` an error frame may carry (see `WireErrorCodeSchema`). */
export const WIRE_ERROR_CODES = [
  'bad-request',
  'too-large',
  'unknown-session',
  'server-error',
  'rate-limited',
  'busy',
  // A principal's (or address's) limits: see protocol/limitErrors.ts and docs/security.md.
  'quota-exceeded',
  'too-busy',
  'too-many-connections',
] as const;

/** Longest request id (and session id in a frame), in characters. */
export const WIRE_ID_MAX_LENGTH = 128;
