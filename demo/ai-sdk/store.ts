// The example's persistence: each person's chats in a folder of their own, each chat's UIMessage[]
// in one JSON file, written whole (a temporary file, then a rename) so a crash never leaves half a
// conversation. Reads and writes are asynchronous and queued per chat: a large chat never holds up
// another's request, and two writes of one chat land in order.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { UIMessage } from 'ai';

/** Chat ids the example accepts (they name files). */
export const CHAT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface ChatStore {
  /** The owner's chat (null: none by that id; another person's chat of that id is not this one). */
  read(owner: string, chatId: string): Promise<UIMessage[] | null>;
  /** Writes the owner's chat whole, after every earlier write of it. */
  write(owner: string, chatId: string, messages: readonly UIMessage[]): Promise<void>;
  /**
   * Reads the owner's chat, changes it and writes it back, queued behind every earlier write of it
   * (nothing else writes between): `change` answers the messages to write, or null to write nothing.
   */
  update(owner: string, chatId: string, change: (messages: UIMessage[] | null) => UIMessage[] | null): Promise<void>;
  /** How many chats the owner has (one directory listing). */
  count(owner: string): Promise<number>;
  /** The chat's messages from any owner's folder, read synchronously ([] for none): for tests and scripts. */
  load(chatId: string): UIMessage[];
  /** The file that holds the owner's chat. */
  file(owner: string, chatId: string): string;
}

/** A store of one folder per owner (named by a hash of their principal id) under `dir` (created). */
export function createChatStore(dir: string): ChatStore {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const folder = (owner: string) => join(dir, createHash('sha256').update(owner).digest('hex').slice(0, 32));
  const file = (owner: string, chatId: string) => {
    if (!CHAT_ID.test(chatId)) throw new Error(`not a chat id: ${JSON.stringify(chatId)}`);
    return join(folder(owner), `${chatId}.json`);
  };
  /** The last write queued per chat file: the next one starts after it. */
  const writes = new Map<string, Promise<void>>();
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';
  const update: ChatStore['update'] = (owner, chatId, change) => {
    const path = file(owner, chatId);
    const done = (writes.get(path) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        let before: UIMessage[] | null = null;
        try {
          before = JSON.parse(await readFile(path, 'utf8')) as UIMessage[];
        } catch (error) {
          if (!missing(error)) throw error;
        }
        const after = change(before);
        if (after === null) return;
        await mkdir(folder(owner), { recursive: true, mode: 0o700 });
        await writeFile(`${path}.tmp`, JSON.stringify(after), { mode: 0o600 });
        await rename(`${path}.tmp`, path);
      });
    writes.set(path, done);
    void done.finally(() => writes.get(path) === done && writes.delete(path)).catch(() => undefined);
    return done;
  };
  return {
    file,
    async read(owner, chatId) {
      const path = file(owner, chatId);
      await writes.get(path)?.catch(() => undefined);
      try {
        return JSON.parse(await readFile(path, 'utf8')) as UIMessage[];
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    write: (owner, chatId, messages) => update(owner, chatId, () => [...messages]),
    update,
    async count(owner) {
      try {
        return (await readdir(folder(owner))).filter((name) => name.endsWith('.json')).length;
      } catch (error) {
        if (missing(error)) return 0;
        throw error;
      }
    },
    load(chatId) {
      if (!CHAT_ID.test(chatId)) throw new Error(`not a chat id: ${JSON.stringify(chatId)}`);
      for (const owner of readdirSync(dir)) {
        try {
          return JSON.parse(readFileSync(join(dir, owner, `${chatId}.json`), 'utf8')) as UIMessage[];
        } catch (error) {
          if (!missing(error) && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
        }
      }
      return [];
    },
  };
}
