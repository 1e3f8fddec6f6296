import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Me } from '../../../../contract/auth.ts';
import { getMe, logOut } from '../../api/account-api.ts';
import { setSessionHooks } from '../../api/api-client.ts';
import { routePaths } from '../../router/match-route.ts';
import { useRouter } from '../../router/router-provider.tsx';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signedOut'; hasExpired: boolean }
  | { status: 'signedIn'; me: Me; isNewAccount: boolean };

export type Session = {
  state: SessionState;
  /** Call with the account the register or login answer returned. */
  signedIn: (me: Me, options: { isNewAccount: boolean }) => void;
  signOut: () => Promise<void>;
  /** Reloads the account (balance) after something changed it. */
  refresh: () => Promise<void>;
};

const SessionContext = createContext<Session | undefined>(undefined);

/** Where to come back to after signing in: `/sign-in?next=/chat`. Only same-site paths are followed. */
export function signInPathFor(next: string): string {
  return `${routePaths.signIn}?next=${encodeURIComponent(next)}`;
}

export function readNextPath(search: string): string | undefined {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : undefined;
}

/**
 * Who is signed in. Asks `GET /api/me` once at start; sign-in and sign-up report the account they got. When any
 * account-API call answers 401 (the session expired or was ended elsewhere), the user is sent to sign-in with the
 * current page as `next`; the page's drafts live in memory (`DraftProvider`), so nothing typed is lost.
 */
export function SessionProvider(props: { children: ReactNode }) {
  const { location, navigate } = useRouter();
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const locationRef = useRef(location);
  locationRef.current = location;

  const endSession = useCallback(() => {
    setState((previous) => (previous.status === 'signedIn' ? { status: 'signedOut', hasExpired: true } : previous));
    const current = locationRef.current;
    if (current.pathname !== routePaths.signIn && current.pathname !== routePaths.signUp) {
      navigate(signInPathFor(`${current.pathname}${current.search}`), { replace: true });
    }
  }, [navigate]);

  const csrfToken = state.status === 'signedIn' ? state.me.csrf_token : undefined;
  useEffect(() => setSessionHooks({ csrfToken, onSessionEnded: endSession }), [csrfToken, endSession]);

  useEffect(() => {
    const controller = new AbortController();
    getMe({ signal: controller.signal }).then(
      (me) => {
        setSessionHooks({ csrfToken: me.csrf_token, onSessionEnded: endSession });
        setState({ status: 'signedIn', me, isNewAccount: false });
      },
      () => {
        if (!controller.signal.aborted) setState({ status: 'signedOut', hasExpired: false });
      },
    );
    return () => controller.abort();
    // Only at start: later changes arrive through signedIn, signOut and the 401 hook.
  }, []);

  const signedIn = useCallback((me: Me, options: { isNewAccount: boolean }) => {
    setSessionHooks({ csrfToken: me.csrf_token, onSessionEnded: endSession });
    setState({ status: 'signedIn', me, isNewAccount: options.isNewAccount });
  }, [endSession]);

  const signOut = useCallback(async () => {
    try {
      await logOut();
    } finally {
      setSessionHooks({ csrfToken: undefined });
      setState({ status: 'signedOut', hasExpired: false });
      navigate(routePaths.home);
    }
  }, [navigate]);

  const refresh = useCallback(async () => {
    const me = await getMe();
    setState((previous) =>
      previous.status === 'signedIn' ? { ...previous, me } : { status: 'signedIn', me, isNewAccount: false },
    );
  }, []);

  const value = useMemo(() => ({ state, signedIn, signOut, refresh }), [state, signedIn, signOut, refresh]);
  return <SessionContext value={value}>{props.children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}
