import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Me } from '../../../../contract/auth.ts';
import { getMe, logOut } from '../../api/account-api.ts';
import { setSessionHooks } from '../../api/api-client.ts';
import { routePaths } from '../../router/match-route.ts';
import { useRouter } from '../../router/router-provider.tsx';
import { readSessionHint, writeSessionHint } from './session-hint.ts';

export type SessionState =
  | { status: 'loading' }
  /** `isChecked`: the server confirmed there is no session (rather than the page not having asked). */
  | { status: 'signedOut'; hasExpired: boolean; isChecked: boolean }
  | { status: 'signedIn'; me: Me; isNewAccount: boolean };

export type Session = {
  state: SessionState;
  /** Call with the account the register or login answer returned. */
  signedIn: (me: Me, options: { isNewAccount: boolean }) => void;
  signOut: () => Promise<void>;
  /** Asks the server who is signed in (for a page that needs a session when the browser had no hint of one). */
  check: () => void;
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
 * Who is signed in. Asks `GET /api/me` at start when this browser was signed in last time (and pages that need a
 * session ask whenever they are opened); sign-in and sign-up report the account they got. When any
 * account-API call answers 401 (the session expired or was ended elsewhere), the user is sent to sign-in with the
 * current page as `next`; the page's drafts live in memory (`DraftProvider`), so nothing typed is lost.
 */
export function SessionProvider(props: { children: ReactNode }) {
  const { location, navigate } = useRouter();
  const [state, setState] = useState<SessionState>(() =>
    readSessionHint() ? { status: 'loading' } : { status: 'signedOut', hasExpired: false, isChecked: false },
  );
  const locationRef = useRef(location);
  locationRef.current = location;

  const stateRef = useRef(state);
  stateRef.current = state;

  const endSession = useCallback(() => {
    writeSessionHint(false);
    if (stateRef.current.status !== 'signedIn') return;
    setState({ status: 'signedOut', hasExpired: true, isChecked: true });
    const current = locationRef.current;
    if (current.pathname !== routePaths.signIn && current.pathname !== routePaths.signUp) {
      navigate(signInPathFor(`${current.pathname}${current.search}`), { replace: true });
    }
  }, [navigate]);

  const csrfToken = state.status === 'signedIn' ? state.me.csrf_token : undefined;
  useEffect(() => setSessionHooks({ csrfToken, onSessionEnded: endSession }), [csrfToken, endSession]);

  const check = useCallback(() => {
    setState((previous) => (previous.status === 'signedIn' ? previous : { status: 'loading' }));
    getMe().then(
      (me) => {
        writeSessionHint(true);
        setSessionHooks({ csrfToken: me.csrf_token, onSessionEnded: endSession });
        setState({ status: 'signedIn', me, isNewAccount: false });
      },
      () => {
        writeSessionHint(false);
        setState({ status: 'signedOut', hasExpired: false, isChecked: true });
      },
    );
  }, [endSession]);

  useEffect(() => {
    if (readSessionHint()) check();
    // Only at start: later changes arrive through signedIn, signOut, check and the 401 hook.
  }, []);

  const signedIn = useCallback(
    (me: Me, options: { isNewAccount: boolean }) => {
      writeSessionHint(true);
      setSessionHooks({ csrfToken: me.csrf_token, onSessionEnded: endSession });
      setState({ status: 'signedIn', me, isNewAccount: options.isNewAccount });
    },
    [endSession],
  );

  const signOut = useCallback(async () => {
    try {
      await logOut();
    } finally {
      writeSessionHint(false);
      setSessionHooks({ csrfToken: undefined });
      setState({ status: 'signedOut', hasExpired: false, isChecked: true });
      navigate(routePaths.home);
    }
  }, [navigate]);

  const value = useMemo(() => ({ state, signedIn, signOut, check }), [state, signedIn, signOut, check]);
  return <SessionContext value={value}>{props.children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}
