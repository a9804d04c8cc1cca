import type { ChildProcess } from 'node:child_process';
import type { Serializable } from 'node:child_process';

/**
 * Sends `job` to a client child process and resolves with its answer: the first message `isAnswer`
 * accepts (default: the first message), rejecting if the child exits first.
 */
export function askChild<T>(
  child: ChildProcess,
  job: Serializable,
  isAnswer: (message: Record<string, unknown>) => boolean = () => true,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`a client process exited (${code})`));
    const onMessage = (message: Record<string, unknown>) => {
      if (!isAnswer(message)) return;
      child.off('message', onMessage);
      child.off('exit', exited);
      resolve(message as T);
    };
    child.once('exit', exited);
    child.on('message', onMessage);
    child.send(job);
  });
}
