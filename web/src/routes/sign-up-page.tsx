import { AuthPage } from '../features/auth/auth-page.tsx';

/** `/sign-up`: e-mail and password only; the new account lands on the dashboard with its welcome balance. */
export function SignUpPage() {
  return <AuthPage mode="signUp" />;
}
