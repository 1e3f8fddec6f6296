import { useI18n } from '../../i18n/i18n-provider.tsx';
import { Link } from '../../router/link.tsx';
import { routePaths } from '../../router/match-route.ts';
import { Badge } from '../../ui/badge.tsx';
import { useSession } from '../auth/session-provider.tsx';
import { useOperatorMessages } from '../../pages/operator/operator-messages.ts';
import { usePublicModels } from '../models/public-models-provider.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';

/**
 * The site header: the name (home link), the main navigation (with the dashboard, chat and sign-out once signed
 * in), a sandbox badge in sandbox mode, the language.
 */
export function SiteHeader() {
  const { messages } = useI18n();
  const { state } = usePublicModels();
  const isSandbox = state.status === 'ready' && state.list.sandbox;
  const { state: sessionState, signOut } = useSession();
  const operatorMessages = useOperatorMessages();
  return (
    <header className="site-header">
      <div className="site-header__inner container">
        <div className="site-header__brand">
          <Link to={routePaths.home} className="brand">
            <span className="brand__mark" aria-hidden="true" />
            <span className="brand__name">{messages.site.name}</span>
          </Link>
          {isSandbox && (
            <Badge tone="sandbox" title={messages.site.sandboxBadgeTitle}>
              {messages.site.sandboxBadge}
            </Badge>
          )}
        </div>
        <nav className="site-nav" aria-label={messages.site.mainNavigation}>
          <ul className="site-nav__list">
            <li>
              <Link to={routePaths.models} isNavItem className="site-nav__link">
                {messages.nav.models}
              </Link>
            </li>
            <li>
              <Link to={routePaths.docs} isNavItem className="site-nav__link">
                {messages.nav.docs}
              </Link>
            </li>
            {sessionState.status === 'signedIn' ? (
              <>
                <li>
                  <Link to={routePaths.dashboard} isNavItem className="site-nav__link">
                    {messages.nav.dashboard}
                  </Link>
                </li>
                <li>
                  <Link to={routePaths.chat} isNavItem className="site-nav__link">
                    {messages.nav.chat}
                  </Link>
                </li>
                {sessionState.status === 'signedIn' && sessionState.me.role === 'admin' && (
                  <li>
                    <Link to={routePaths.operator} isNavItem className="site-nav__link">
                      {operatorMessages.nav}
                    </Link>
                  </li>
                )}
                <li>
                  <button type="button" className="site-nav__link site-nav__button" onClick={() => void signOut()}>
                    {messages.nav.signOut}
                  </button>
                </li>
              </>
            ) : (
              <>
                <li>
                  <Link to={routePaths.signIn} isNavItem className="site-nav__link site-nav__link--sign-in">
                    {messages.nav.signIn}
                  </Link>
                </li>
                <li>
                  <Link to={routePaths.signUp} isNavItem className="site-nav__link">
                    {messages.nav.signUp}
                  </Link>
                </li>
              </>
            )}
          </ul>
        </nav>
        <LanguageSwitcher />
      </div>
    </header>
  );
}
