import { useI18n } from '../i18n/i18n-provider.tsx';
import { routePaths } from '../router/match-route.ts';
import { usePageTitle } from '../router/use-page-title.ts';
import { ButtonLink } from '../ui/button-link.tsx';

/** `/sign-in`: says honestly that accounts are not open yet, and where to go meanwhile. */
export function SignInPage() {
  const { messages } = useI18n();
  const text = messages.signIn;
  usePageTitle(text.title);
  return (
    <div className="page container container--narrow">
      <div className="card sign-in">
        <h1>{text.title}</h1>
        <p className="notice notice--info" role="note">
          {text.notYet}
        </p>
        <p>{text.meanwhile}</p>
        <div className="sign-in__actions">
          <ButtonLink to={routePaths.models}>{messages.nav.models}</ButtonLink>
          <ButtonLink to={routePaths.docs} variant="secondary">
            {messages.nav.docs}
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
