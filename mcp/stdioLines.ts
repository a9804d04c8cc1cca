/*
 * stdio's input, line by line, before the SDK reads it: a line over `maxLineBytes` (dropped as it
 * arrives, never buffered whole), one that is not JSON, or one nested deeper than `maxDepth` is
 * named on stderr and skipped, and the server goes on with the next line.
 */
import { Transform, type Readable } from 'node:stream';
import { MAX_FRAME_DEPTH, nestsDeeperThan } from '../transport/ws/frames.js';

/** The longest line the stdio server reads (10 MiB). */
export const STDIO_MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 10;

/** `input` with every bad line left out (see the file's comment); `log` hears why, one line each. */
export function guardLines(
  input: Readable,
  log: (line: string) => void,
  maxLineBytes: number = STDIO_MAX_LINE_BYTES,
  maxDepth: number = MAX_FRAME_DEPTH,
): Readable {
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** Bytes of an over-long line dropped so far (0: not dropping). */
  let dropped = 0;
  const line = (bytes: Buffer, push: (b: Buffer) => void) => {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    if (nestsDeeperThan(text, maxDepth)) return log(`task-surface-mcp: skipped a line nested deeper than ${maxDepth}`);
    try {
      JSON.parse(text);
    } catch {
      return log(`task-surface-mcp: skipped a line that is not JSON (${bytes.length} bytes)`);
    }
    push(Buffer.concat([bytes, Buffer.from('\n')]));
  };
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, at);
        start = at + 1;
        if (dropped > 0) {
          log(`task-surface-mcp: skipped a line of ${dropped + piece.length} bytes (at most ${maxLineBytes})`);
          dropped = 0;
        } else if (heldBytes + piece.length > maxLineBytes) {
          log(`task-surface-mcp: skipped a line of ${heldBytes + piece.length} bytes (at most ${maxLineBytes})`);
        } else line(Buffer.concat([...held, piece]), (b) => this.push(b));
        held = [];
        heldBytes = 0;
      }
      const rest = chunk.subarray(start);
      if (dropped > 0) dropped += rest.length;
      else if (heldBytes + rest.length > maxLineBytes) {
        dropped = heldBytes + rest.length;
        held = [];
        heldBytes = 0;
      } else if (rest.length > 0) {
        held.push(rest);
        heldBytes += rest.length;
      }
      done();
    },
  });
  input.pipe(guard);
  input.once('close', () => guard.end());
  return guard;
}
