import { createContext, use, useMemo, useRef, type ReactNode } from 'react';

export type Drafts = { read: (name: string) => string; write: (name: string, text: string) => void };

const DraftContext = createContext<Drafts | undefined>(undefined);

/**
 * Text the user is typing (a chat message, a key name), kept in memory above the pages, so a trip to sign-in after
 * an expired session does not lose it. Never written to storage: a draft may be a private message.
 */
export function DraftProvider(props: { children: ReactNode }) {
  const drafts = useRef(new Map<string, string>());
  const value = useMemo<Drafts>(
    () => ({
      read: (name) => drafts.current.get(name) ?? '',
      write: (name, text) => void drafts.current.set(name, text),
    }),
    [],
  );
  return <DraftContext value={value}>{props.children}</DraftContext>;
}

export function useDrafts(): Drafts {
  const drafts = use(DraftContext);
  if (!drafts) throw new Error('useDrafts needs a <DraftProvider> above it');
  return drafts;
}
