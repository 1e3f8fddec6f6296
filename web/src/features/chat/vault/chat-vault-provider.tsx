import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { ChatVault } from '../../../../../contract/chats.ts';
import { getChatVault, putChatVault } from '../../../api/chats-api.ts';
import { useSession } from '../../auth/session-provider.tsx';
import { createVault, unlockVault } from '../crypto/chat-crypto.ts';

export type ChatVaultState =
  | { status: 'signedOut' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'needsSetup' }
  | { status: 'locked'; vault: ChatVault }
  | { status: 'unlocked'; accountKey: CryptoKey };

export type ChatVaultControls = {
  state: ChatVaultState;
  /** Chooses the first passphrase: a new account key, stored wrapped. */
  setUp: (passphrase: string) => Promise<void>;
  /** Unwraps the account key; rejects with `WrongPassphraseError` and changes nothing when it does not fit. */
  unlock: (passphrase: string) => Promise<void>;
  lock: () => void;
  retry: () => void;
};

const ChatVaultContext = createContext<ChatVaultControls | undefined>(undefined);

/**
 * The signed-in user's chat account key, held only in memory as a non-extractable `CryptoKey` once unlocked. It
 * lives above the pages, so a trip to sign-in after an expired session (same user) does not lock the chat; a
 * different user, or signing out, forgets it. A reload forgets it too: unlocking again needs the passphrase.
 */
export function ChatVaultProvider(props: { children: ReactNode }) {
  const { state: session } = useSession();
  const userId = session.status === 'signedIn' ? session.me.id : undefined;
  const [state, setState] = useState<ChatVaultState>({ status: 'signedOut' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (userId === undefined) {
      if (session.status === 'signedOut') setState({ status: 'signedOut' });
      return;
    }
    let isCurrent = true;
    setState({ status: 'loading' });
    getChatVault().then(
      (answer) => {
        if (isCurrent) setState(answer.vault ? { status: 'locked', vault: answer.vault } : { status: 'needsSetup' });
      },
      (error: unknown) => {
        if (isCurrent) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      isCurrent = false;
    };
    // The key belongs to one user: a change of user (or an explicit retry) starts over.
  }, [userId, attempt]);

  const setUp = useCallback(async (passphrase: string) => {
    const created = await createVault(passphrase);
    await putChatVault({ ...created.stored, expected_version: 0 });
    setState({ status: 'unlocked', accountKey: created.accountKey });
  }, []);

  const unlock = useCallback(
    async (passphrase: string) => {
      if (state.status !== 'locked') return;
      const accountKey = await unlockVault(passphrase, state.vault);
      setState({ status: 'unlocked', accountKey });
    },
    [state],
  );

  const lock = useCallback(() => setAttempt((count) => count + 1), []);
  const retry = lock;

  const value = useMemo(() => ({ state, setUp, unlock, lock, retry }), [state, setUp, unlock, lock, retry]);
  return <ChatVaultContext value={value}>{props.children}</ChatVaultContext>;
}

export function useChatVault(): ChatVaultControls {
  const controls = use(ChatVaultContext);
  if (!controls) throw new Error('useChatVault needs a <ChatVaultProvider> above it');
  return controls;
}
