import { useEffect } from 'react';
import { useI18n } from '../i18n/i18n-provider.tsx';

/** Sets the document title to "<page> · <site name>" (or the site name alone for the home page). */
export function usePageTitle(pageTitle: string | undefined): void {
  const { messages } = useI18n();
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${messages.site.name}` : messages.site.name;
  }, [pageTitle, messages.site.name]);
}
