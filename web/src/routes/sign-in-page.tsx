import { AuthPage } from '../features/auth/auth-page.tsx';

/** `/sign-in`: e-mail and password; back to the page the user came from (`?next=`), or the dashboard. */
export function SignInPage() {
  return <AuthPage mode="signIn" />;
}
