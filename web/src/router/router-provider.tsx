import { createContext, use, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';

export type Location = { pathname: string; search: string };
export type NavigateOptions = { replace?: boolean };

export type Router = {
  location: Location;
  /** Where the last change came from: the first render, a link or `navigate`, or the back/forward buttons. */
  lastNavigation: 'initial' | 'push' | 'replace' | 'history';
  navigate: (to: string, options?: NavigateOptions) => void;
};

const RouterContext = createContext<Router | undefined>(undefined);

/**
 * A small client-side router on the History API: `navigate` pushes (or replaces) an entry, and the back and forward
 * buttons are followed through `popstate`. The server answers every page path with the app, so deep links work.
 */
export function RouterProvider(props: { children: ReactNode }) {
  const [state, setState] = useState<Pick<Router, 'location' | 'lastNavigation'>>(() => ({
    location: readLocation(),
    lastNavigation: 'initial',
  }));

  useEffect(() => {
    // A jump to an anchor on the same page also fires popstate; it is not a page change, so it changes nothing here.
    const onPopState = () =>
      setState((previous) => {
        const location = readLocation();
        const isSamePage =
          location.pathname === previous.location.pathname && location.search === previous.location.search;
        return isSamePage ? previous : { location, lastNavigation: 'history' };
      });
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  const navigate = useCallback((to: string, options: NavigateOptions = {}) => {
    const isReplace = options.replace === true;
    if (isReplace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    setState({ location: readLocation(), lastNavigation: isReplace ? 'replace' : 'push' });
    if (!isReplace) window.scrollTo(0, 0);
  }, []);

  const value = useMemo(() => ({ ...state, navigate }), [state, navigate]);
  return <RouterContext value={value}>{props.children}</RouterContext>;
}

/** The current location and `navigate`. */
export function useRouter(): Router {
  const router = use(RouterContext);
  if (!router) throw new Error('useRouter needs a <RouterProvider> above it');
  return router;
}

function readLocation(): Location {
  return { pathname: window.location.pathname, search: window.location.search };
}
