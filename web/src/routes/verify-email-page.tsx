import { useEffect, useRef, useState } from 'react';
import { apiEndpoints } from '../../../contract/api-endpoints.ts';
import { callEndpoint } from '../api/call-endpoint.ts';
import { describeLinkError } from '../features/account-email/describe-link-error.ts';
import { useSession } from '../features/auth/session-provider.tsx';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { Link } from '../router/link.tsx';
import { routePaths } from '../router/match-route.ts';
import { useRouter } from '../router/router-provider.tsx';
import { usePageTitle } from '../router/use-page-title.ts';

type State = { kind: 'working' } | { kind: 'done'; welcomeUsd: number } | { kind: 'failed'; message: string };

/** `/verify-email?token=…`: the link of the verification mail; uses the token once, on arrival. */
export function VerifyEmailPage() {
  const { messages } = useI18n();
  const text = messages.accountEmail;
  usePageTitle(text.verifyTitle);
  const { location } = useRouter();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [state, setState] = useState<State>(
    token === '' ? { kind: 'failed', message: text.missingToken } : { kind: 'working' },
  );
  // A browser signed in to this gateway must send its CSRF token with the POST: wait until the session is known.
  const isSessionKnown = useSession().state.status !== 'loading';
  // A link works once: React's development double effects must not spend it twice.
  const hasStarted = useRef(false);
  useEffect(() => {
    if (token === '' || !isSessionKnown || hasStarted.current) return;
    hasStarted.current = true;
    callEndpoint(apiEndpoints.verifyEmail, { body: { token } })
      .then((verified) => setState({ kind: 'done', welcomeUsd: verified.welcome_credited_usd }))
      .catch((caught: unknown) =>
        setState({ kind: 'failed', message: describeLinkError(caught, text, messages.auth) }),
      );
  }, [token, isSessionKnown, text, messages.auth]);

  return (
    <div className="page container container--narrow">
      <div className="card auth-card">
        <h1>{text.verifyTitle}</h1>
        {state.kind === 'working' && <p role="status">{text.verifying}</p>}
        {state.kind === 'done' && (
          <>
            <p className="notice" role="status">
              {text.verified}
              {state.welcomeUsd > 0 && ` ${text.welcomeCredited(state.welcomeUsd.toFixed(2))}`}
            </p>
            <p>
              <Link to={routePaths.dashboard}>{text.goDashboard}</Link>
            </p>
          </>
        )}
        {state.kind === 'failed' && (
          <p className="notice notice--error" role="alert">
            {state.message}
          </p>
        )}
      </div>
    </div>
  );
}
