import { useId, useState, type FormEvent } from 'react';
import type { Me } from '../../../../contract/auth.ts';
import { logIn, register } from '../../api/account-api.ts';
import { ApiError } from '../../api/api-client.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Messages } from '../../i18n/messages-en.ts';
import { solveSignUpChallenge } from '../account-email/solve-sign-up-challenge.ts';
import { checkNewPassword } from './check-password.ts';
import { describePasswordProblem } from './describe-password-problem.ts';

type Field = 'email' | 'password' | 'confirmation' | 'form';
type FormError = { field: Field; message: string };

/**
 * The sign-in or sign-up form. A new password is checked here with the server's own rules before it is sent, and
 * every refusal is shown in words next to the field it concerns.
 */
export function AuthForm(props: { mode: 'signIn' | 'signUp'; onSignedIn: (me: Me) => void }) {
  const { messages, language } = useI18n();
  const text = messages.auth;
  const isSignUp = props.mode === 'signUp';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<FormError | undefined>();
  const [isWorking, setIsWorking] = useState(false);
  const ids = { email: useId(), password: useId(), confirmation: useId(), hint: useId(), error: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isWorking) return;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError({ field: 'email', message: text.emailInvalid });
      return;
    }
    if (isSignUp) {
      const problem = checkNewPassword({ password, confirmation, email });
      if (problem) {
        setError({
          field: problem === 'differs' ? 'confirmation' : 'password',
          message: describePasswordProblem(problem, text),
        });
        return;
      }
    }
    setIsWorking(true);
    setError(undefined);
    try {
      const credentials = { email: email.trim(), password };
      if (isSignUp) {
        // The proof of work runs only on submit, so a visitor who only looks spends nothing.
        const altcha = await solveSignUpChallenge();
        props.onSignedIn(await register({ ...credentials, locale: language, ...(altcha ? { altcha } : {}) }));
      } else {
        props.onSignedIn(await logIn(credentials));
      }
    } catch (caught) {
      setError(describeApiError(caught, text));
      setIsWorking(false);
    }
  };

  const fieldError = (field: Field) => (error?.field === field ? error.message : undefined);
  const describedBy = (field: Field, extra?: string) =>
    [extra, fieldError(field) ? ids.error : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="field">
        <label className="field__label" htmlFor={ids.email}>
          {text.email}
        </label>
        <input
          id={ids.email}
          className="field__input"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldError('email') ? true : undefined}
          aria-describedby={describedBy('email')}
          required
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.password}>
          {text.password}
        </label>
        <input
          id={ids.password}
          className="field__input"
          type="password"
          autoComplete={isSignUp ? 'new-password' : 'current-password'}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={fieldError('password') ? true : undefined}
          aria-describedby={describedBy('password', isSignUp ? ids.hint : undefined)}
          required
        />
        {isSignUp && (
          <p id={ids.hint} className="field__hint">
            {text.passwordHint}
          </p>
        )}
      </div>
      {isSignUp && (
        <div className="field">
          <label className="field__label" htmlFor={ids.confirmation}>
            {text.confirmPassword}
          </label>
          <input
            id={ids.confirmation}
            className="field__input"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            aria-invalid={fieldError('confirmation') ? true : undefined}
            aria-describedby={describedBy('confirmation')}
            required
          />
        </div>
      )}
      {error && (
        <p id={ids.error} className="notice notice--error" role="alert">
          {error.message}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={isWorking}>
        {isWorking ? text.working : isSignUp ? text.signUpButton : text.signInButton}
      </button>
    </form>
  );
}

function describeApiError(caught: unknown, text: Messages['auth']): FormError {
  if (!(caught instanceof ApiError)) return { field: 'form', message: text.genericError(String(caught)) };
  if (caught.status === 0) return { field: 'form', message: text.networkError };
  if (caught.code === 'email_taken') return { field: 'email', message: text.emailTaken };
  if (caught.code === 'invalid_credentials') return { field: 'form', message: text.wrongCredentials };
  if (caught.code === 'account_blocked') return { field: 'form', message: text.blocked };
  if (caught.status === 429) return { field: 'form', message: text.tooManyAttempts };
  if (caught.param === 'email') return { field: 'email', message: text.emailInvalid };
  if (caught.code === 'weak_password') return { field: 'password', message: caught.message };
  return { field: 'form', message: text.genericError(caught.message) };
}
