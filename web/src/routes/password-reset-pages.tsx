import { useState, type FormEvent } from 'react';
import { apiEndpoints } from '../../../contract/api-endpoints.ts';
import { callEndpoint } from '../api/call-endpoint.ts';
import { describeLinkError } from '../features/account-email/describe-link-error.ts';
import { solveSignUpChallenge } from '../features/account-email/solve-sign-up-challenge.ts';
import { checkNewPassword } from '../features/auth/check-password.ts';
import { describePasswordProblem } from '../features/auth/describe-password-problem.ts';
import '../features/auth/auth.css';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { Link } from '../router/link.tsx';
import { routePaths } from '../router/match-route.ts';
import { useRouter } from '../router/router-provider.tsx';
import { usePageTitle } from '../router/use-page-title.ts';
import { TextField } from '../ui/text-field.tsx';

type Phase = { kind: 'editing'; error?: string } | { kind: 'working' } | { kind: 'done' };

/** `/forgot-password`: asks for a reset link; the answer reads the same whether or not the address has an account. */
export function ForgotPasswordPage() {
  const { messages } = useI18n();
  const text = messages.accountEmail;
  usePageTitle(text.forgotTitle);
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (phase.kind === 'working') return;
    setPhase({ kind: 'working' });
    try {
      const altcha = await solveSignUpChallenge();
      await callEndpoint(apiEndpoints.forgotPassword, { body: { email: email.trim(), ...(altcha ? { altcha } : {}) } });
      setPhase({ kind: 'done' });
    } catch (caught) {
      setPhase({ kind: 'editing', error: describeLinkError(caught, text, messages.auth) });
    }
  };

  return (
    <div className="page container container--narrow">
      <div className="card auth-card">
        <h1>{text.forgotTitle}</h1>
        {phase.kind === 'done' ? (
          <p className="notice" role="status">
            {text.forgotSent}
          </p>
        ) : (
          <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
            <p className="page__lead">{text.forgotLead}</p>
            <TextField
              label={messages.auth.email}
              type="email"
              autoComplete="email"
              value={email}
              onChange={setEmail}
            />
            <ErrorAndSubmit phase={phase} label={text.forgotButton} workingLabel={text.solving} />
          </form>
        )}
      </div>
    </div>
  );
}

/** `/reset-password?token=…`: the link of the reset mail; a new password, checked here with the server's rules. */
export function ResetPasswordPage() {
  const { messages } = useI18n();
  const text = messages.accountEmail;
  const auth = messages.auth;
  usePageTitle(text.resetTitle);
  const { location } = useRouter();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [phase, setPhase] = useState<Phase>(
    token === '' ? { kind: 'editing', error: text.missingToken } : { kind: 'editing' },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (phase.kind === 'working') return;
    const problem = checkNewPassword({ password, confirmation, email: '' });
    if (problem) {
      setPhase({ kind: 'editing', error: describePasswordProblem(problem, auth) });
      return;
    }
    setPhase({ kind: 'working' });
    try {
      await callEndpoint(apiEndpoints.resetPassword, { body: { token, password } });
      setPhase({ kind: 'done' });
    } catch (caught) {
      setPhase({ kind: 'editing', error: describeLinkError(caught, text, auth) });
    }
  };

  return (
    <div className="page container container--narrow">
      <div className="card auth-card">
        <h1>{text.resetTitle}</h1>
        {phase.kind === 'done' ? (
          <>
            <p className="notice" role="status">
              {text.resetDone}
            </p>
            <p>
              <Link to={routePaths.signIn}>{text.goSignIn}</Link>
            </p>
          </>
        ) : (
          <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
            <TextField
              label={auth.password}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              hint={auth.passwordHint}
            />
            <TextField
              label={auth.confirmPassword}
              type="password"
              autoComplete="new-password"
              value={confirmation}
              onChange={setConfirmation}
            />
            <ErrorAndSubmit phase={phase} label={text.resetButton} workingLabel={auth.working} />
          </form>
        )}
      </div>
    </div>
  );
}

/** The end of both forms: the refusal in words, if any, and the submit button, disabled while the call runs. */
function ErrorAndSubmit(props: { phase: Phase; label: string; workingLabel: string }) {
  const { phase } = props;
  return (
    <>
      {phase.kind === 'editing' && phase.error && (
        <p className="notice notice--error" role="alert">
          {phase.error}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={phase.kind === 'working'}>
        {phase.kind === 'working' ? props.workingLabel : props.label}
      </button>
    </>
  );
}
