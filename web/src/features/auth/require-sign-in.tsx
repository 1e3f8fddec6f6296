import { useEffect, type ReactNode } from 'react';
import type { Me } from '../../../../contract/auth.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { useRouter } from '../../router/router-provider.tsx';
import { signInPathFor, useSession } from './session-provider.tsx';

/** Renders its children for a signed-in user; sends anyone else to sign-in, coming back here afterwards. */
export function RequireSignIn(props: { children: (me: Me, isNewAccount: boolean) => ReactNode }) {
  const { state, check } = useSession();
  const { messages } = useI18n();
  const { location, navigate } = useRouter();
  const isSignedOut = state.status === 'signedOut' && state.isChecked;
  const isUnchecked = state.status === 'signedOut' && !state.isChecked;

  useEffect(() => {
    if (isUnchecked) check();
  }, [isUnchecked, check]);

  useEffect(() => {
    if (isSignedOut) navigate(signInPathFor(`${location.pathname}${location.search}`), { replace: true });
  }, [isSignedOut, location.pathname, location.search, navigate]);

  if (state.status !== 'signedIn') {
    return (
      <p className="page container status" role="status">
        {messages.common.loading}
      </p>
    );
  }
  return props.children(state.me, state.isNewAccount);
}
