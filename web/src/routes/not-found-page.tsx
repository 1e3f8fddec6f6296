import { useI18n } from '../i18n/i18n-provider.tsx';
import { routePaths } from '../router/match-route.ts';
import { usePageTitle } from '../router/use-page-title.ts';
import { ButtonLink } from '../ui/button-link.tsx';

/** Any address the app has no page for. */
export function NotFoundPage() {
  const { messages } = useI18n();
  usePageTitle(messages.notFound.title);
  return (
    <div className="page container container--narrow">
      <h1>{messages.notFound.title}</h1>
      <p>{messages.notFound.text}</p>
      <ButtonLink to={routePaths.home}>{messages.notFound.home}</ButtonLink>
    </div>
  );
}
