import './auth.css';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { Link } from '../../router/link.tsx';
import { routePaths } from '../../router/match-route.ts';
import { useRouter } from '../../router/router-provider.tsx';
import { usePageTitle } from '../../router/use-page-title.ts';
import { AuthForm } from './auth-form.tsx';
import { readNextPath, useSession } from './session-provider.tsx';

/** The sign-in or sign-up page around the form; says so when the user arrives because the session ended. */
export function AuthPage(props: { mode: 'signIn' | 'signUp' }) {
  const { messages } = useI18n();
  const text = messages.auth;
  const { location, navigate } = useRouter();
  const session = useSession();
  const isSignUp = props.mode === 'signUp';
  const title = isSignUp ? text.signUpTitle : text.signInTitle;
  usePageTitle(title);
  const next = readNextPath(location.search);
  const hasExpired = session.state.status === 'signedOut' && session.state.hasExpired;
  const otherPath = isSignUp ? routePaths.signIn : routePaths.signUp;

  return (
    <div className="page container container--narrow">
      <div className="card auth-card">
        <h1>{title}</h1>
        {hasExpired && !isSignUp && (
          <p className="notice notice--info" role="status">
            {text.sessionExpired}
          </p>
        )}
        <p className="page__lead">{isSignUp ? text.signUpLead : text.signInLead}</p>
        <AuthForm
          key={props.mode}
          mode={props.mode}
          onSignedIn={(me) => {
            // An account made elsewhere (the CLI, the operator) is greeted on its first sign-in, as on sign-up.
            session.signedIn(me, { isNewAccount: isSignUp || me.is_first_session });
            navigate(next ?? routePaths.dashboard, { replace: true });
          }}
        />
        {!isSignUp && (
          <p className="auth-card__switch">
            <Link to={routePaths.forgotPassword}>{messages.accountEmail.forgotLink}</Link>
          </p>
        )}
        <p className="auth-card__switch">
          {isSignUp ? text.haveAccount : text.noAccount}{' '}
          <Link to={next ? `${otherPath}?next=${encodeURIComponent(next)}` : otherPath}>
            {isSignUp ? text.goSignIn : text.goSignUp}
          </Link>
        </p>
      </div>
    </div>
  );
}
