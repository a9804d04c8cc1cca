/*
 * Files that hold people's conversations or secrets are readable by their owner only (Node only).
 * A file or folder found with looser bits is tightened, not refused: a process that cannot tighten
 * it (it is not the owner) fails with a clear error instead of serving from it.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/** `path` as a file only its owner may read and write (0600): created so, or tightened. */
export function privateFile(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  tighten(path, 0o600);
}

/** `path` as a folder only its owner may enter (0700): made so (with its parents), or tightened. */
export function privateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  tighten(path, 0o700);
}

function tighten(path: string, mode: number): void {
  if ((statSync(path).mode & 0o777 & ~mode) === 0) return;
  try {
    chmodSync(path, mode);
  } catch (error) {
    throw new Error(
      `${path} is readable by other users and could not be made private (chmod ${mode.toString(8)}): ${(error as Error).message}`,
      { cause: error },
    );
  }
}
