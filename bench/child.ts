import type { ChildProcess } from 'node:child_process';
import type { Serializable } from 'node:child_process';

/** Sends `job` to a client child process and resolves with its one answer (rejects if it exits first). */
export function askChild<T>(child: ChildProcess, job: Serializable): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`a client process exited (${code})`));
    child.once('exit', exited);
    child.once('message', (result) => {
      child.off('exit', exited);
      resolve(result as T);
    });
    child.send(job);
  });
}
