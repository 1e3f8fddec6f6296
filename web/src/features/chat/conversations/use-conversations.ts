import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConversationBody, ConversationEntry } from './conversation-body.ts';
import {
  loadConversationBody,
  loadConversationList,
  removeConversation,
  saveConversation,
} from './conversation-store.ts';
import { useUnsavedConversations } from './unsaved-conversations.tsx';

export type Conversations = {
  entries: ConversationEntry[] | undefined;
  loadError: string | undefined;
  /** The entry as it is now (the latest version), or undefined. */
  find: (id: string) => ConversationEntry | undefined;
  /** Puts an entry (new or changed) into the list, most recent first. */
  put: (entry: ConversationEntry) => void;
  /** Decrypts the body of an entry that has not been opened yet. */
  open: (id: string) => Promise<ConversationBody>;
  save: (id: string, change: { title?: string; body?: ConversationBody }) => Promise<void>;
  remove: (id: string) => Promise<void>;
};

/**
 * The decrypted conversation list of the unlocked account. Saves go one at a time per conversation, each based on
 * the version the previous one returned, so a page never conflicts with itself. A conversation whose save failed is
 * kept in memory above the page and saved again when the list next loads (after signing in again and unlocking).
 */
export function useConversations(accountKey: CryptoKey): Conversations {
  const [entries, setEntries] = useState<ConversationEntry[] | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const latest = useRef(new Map<string, ConversationEntry>());
  const queues = useRef(new Map<string, Promise<void>>());
  const opening = useRef(new Map<string, Promise<ConversationBody>>());
  const unsaved = useUnsavedConversations();

  const put = useCallback((entry: ConversationEntry) => {
    latest.current.set(entry.id, entry);
    setEntries((previous) => [entry, ...(previous ?? []).filter((item) => item.id !== entry.id)]);
  }, []);

  const find = useCallback((id: string) => latest.current.get(id), []);

  const open = useCallback((id: string) => {
    const entry = latest.current.get(id);
    if (!entry) return Promise.reject(new Error(`unknown conversation ${id}`));
    if (entry.body) return Promise.resolve(entry.body);
    const pending =
      opening.current.get(id) ??
      loadConversationBody(entry).then(({ body, version }) => {
        const opened = { ...entry, body, version };
        latest.current.set(id, opened);
        setEntries((previous) => previous?.map((item) => (item.id === id ? opened : item)));
        return body;
      });
    opening.current.set(id, pending);
    return pending.finally(() => opening.current.delete(id));
  }, []);

  const save = useCallback(
    (id: string, change: { title?: string; body?: ConversationBody }) => {
      const current = latest.current.get(id);
      if (current) latest.current.set(id, { ...current, ...change });
      const previous = queues.current.get(id) ?? Promise.resolve();
      const next = previous
        .catch(() => undefined)
        .then(async () => {
          const entry = latest.current.get(id);
          if (!entry?.body) return;
          let saved: ConversationEntry;
          try {
            saved = await saveConversation({ ...entry, body: entry.body });
          } catch (error) {
            unsaved.keep(entry);
            throw error;
          }
          unsaved.forget(id);
          const now = latest.current.get(id);
          // Keep edits made while this save was in flight; take the new version from the server.
          const merged = { ...saved, ...(now ?? {}), version: saved.version, updatedAt: saved.updatedAt };
          latest.current.set(id, merged);
          setEntries((list) => [merged, ...(list ?? []).filter((item) => item.id !== id)]);
        });
      queues.current.set(id, next);
      return next;
    },
    [unsaved],
  );

  useEffect(() => {
    let isCurrent = true;
    loadConversationList(accountKey).then(
      (loaded) => {
        if (!isCurrent) return;
        const pending = unsaved.list();
        const pendingIds = new Set(pending.map((entry) => entry.id));
        const merged = [...pending, ...loaded.filter((entry) => !pendingIds.has(entry.id))];
        latest.current = new Map(merged.map((entry) => [entry.id, entry]));
        setEntries(merged);
        for (const entry of pending) void save(entry.id, {}).catch(() => undefined);
      },
      (error: unknown) => {
        if (isCurrent) setLoadError(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [accountKey, unsaved, save]);

  const remove = useCallback(
    async (id: string) => {
      const entry = latest.current.get(id);
      await (queues.current.get(id) ?? Promise.resolve()).catch(() => undefined);
      if (entry && (latest.current.get(id)?.version ?? entry.version) > 0) await removeConversation(id);
      latest.current.delete(id);
      unsaved.forget(id);
      setEntries((list) => list?.filter((item) => item.id !== id));
    },
    [unsaved],
  );

  return { entries, loadError, find, put, open, save, remove };
}
