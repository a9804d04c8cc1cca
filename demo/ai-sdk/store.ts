// The example's persistence: each chat's UIMessage[] in one JSON file, written whole (write to a
// temporary file, then rename) so a crash never leaves half a conversation.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UIMessage } from 'ai';

/** Chat ids the example accepts (they name files). */
export const CHAT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface ChatStore {
  /** The chat's messages ([] for a new chat). */
  load(chatId: string): UIMessage[];
  save(chatId: string, messages: readonly UIMessage[]): void;
  /** The file that holds a chat. */
  file(chatId: string): string;
}

/** A store of one JSON file per chat under `dir` (created). */
export function createChatStore(dir: string): ChatStore {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (chatId: string) => {
    if (!CHAT_ID.test(chatId)) throw new Error(`not a chat id: ${JSON.stringify(chatId)}`);
    return join(dir, `${chatId}.json`);
  };
  return {
    file,
    load(chatId) {
      try {
        return JSON.parse(readFileSync(file(chatId), 'utf8')) as UIMessage[];
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    },
    save(chatId, messages) {
      const target = file(chatId);
      writeFileSync(`${target}.tmp`, JSON.stringify(messages, null, 1), { mode: 0o600 });
      renameSync(`${target}.tmp`, target);
    },
  };
}
