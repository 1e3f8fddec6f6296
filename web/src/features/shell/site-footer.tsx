import { useI18n } from '../../i18n/i18n-provider.tsx';
import { Link } from '../../router/link.tsx';
import { routePaths } from '../../router/match-route.ts';

/** The site footer: what the service is in one line, the privacy promise, and links. */
export function SiteFooter() {
  const { messages } = useI18n();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner container">
        <div>
          <p className="site-footer__name">{messages.site.name}</p>
          <p>{messages.footer.summary}</p>
          <p>{messages.footer.privacy}</p>
        </div>
        <ul className="site-footer__links">
          <li>
            <Link to={routePaths.models}>{messages.nav.models}</Link>
          </li>
          <li>
            <Link to={routePaths.docs}>{messages.nav.docs}</Link>
          </li>
          <li>
            <a href="/api/models">{messages.footer.priceListJson}</a>
          </li>
        </ul>
      </div>
    </footer>
  );
}
