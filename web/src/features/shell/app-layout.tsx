import './shell.css';
import { useEffect, useRef, type ReactNode } from 'react';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { useRouter } from '../../router/router-provider.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

const mainId = 'main';

/**
 * The frame of every page: skip link, header, main content, footer. After an in-app navigation, focus moves to the
 * main content so keyboard and screen-reader users start reading the new page from its top.
 */
export function AppLayout(props: { children: ReactNode }) {
  const { messages } = useI18n();
  const { location, lastNavigation } = useRouter();
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (lastNavigation === 'push' || lastNavigation === 'history') mainRef.current?.focus({ preventScroll: true });
  }, [location.pathname, lastNavigation]);

  return (
    <div className="app">
      <a className="skip-link" href={`#${mainId}`}>
        {messages.site.skipToContent}
      </a>
      <SiteHeader />
      <main id={mainId} ref={mainRef} tabIndex={-1} className="app__main">
        {props.children}
      </main>
      <SiteFooter />
    </div>
  );
}
