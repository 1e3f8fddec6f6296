import { createContext, use, useMemo, useRef, type ReactNode } from 'react';
import { useSession } from '../../auth/session-provider.tsx';
import type { ConversationEntry } from './conversation-body.ts';

/** Conversations whose last save failed, kept in memory until a save succeeds. */
export type UnsavedConversations = {
  list: () => ConversationEntry[];
  keep: (entry: ConversationEntry) => void;
  forget: (id: string) => void;
};

const UnsavedContext = createContext<UnsavedConversations | undefined>(undefined);

/**
 * Holds, above the pages, the conversations a save could not store (for example because the session ended while an
 * answer streamed). After the same user signs in and unlocks again, the chat saves them, so no exchange is lost. A
 * different user never sees them: they are dropped when another account signs in. Memory only, never storage.
 */
export function UnsavedConversationsProvider(props: { children: ReactNode }) {
  const { state } = useSession();
  const owner = useRef<string | undefined>(undefined);
  const entries = useRef(new Map<string, ConversationEntry>());
  if (state.status === 'signedIn' && owner.current !== state.me.id) {
    if (owner.current !== undefined) entries.current.clear();
    owner.current = state.me.id;
  }
  const value = useMemo<UnsavedConversations>(
    () => ({
      list: () => [...entries.current.values()],
      keep: (entry) => void entries.current.set(entry.id, entry),
      forget: (id) => void entries.current.delete(id),
    }),
    [],
  );
  return <UnsavedContext value={value}>{props.children}</UnsavedContext>;
}

export function useUnsavedConversations(): UnsavedConversations {
  const unsaved = use(UnsavedContext);
  if (!unsaved) throw new Error('useUnsavedConversations needs an <UnsavedConversationsProvider> above it');
  return unsaved;
}
