import type { ReactNode } from 'react';
import { AppLayout } from './features/shell/app-layout.tsx';
import { PublicModelsProvider } from './features/models/public-models-provider.tsx';
import { I18nProvider, type LanguageStorage } from './i18n/i18n-provider.tsx';
import { type RouteId, matchRoute } from './router/match-route.ts';
import { RouterProvider, useRouter } from './router/router-provider.tsx';
import { DocsPage } from './routes/docs-page.tsx';
import { HomePage } from './routes/home-page.tsx';
import { ModelsPage } from './routes/models-page.tsx';
import { NotFoundPage } from './routes/not-found-page.tsx';
import { SignInPage } from './routes/sign-in-page.tsx';

const pages = {
  home: HomePage,
  models: ModelsPage,
  docs: DocsPage,
  signIn: SignInPage,
  notFound: NotFoundPage,
} as const satisfies Record<RouteId, () => ReactNode>;

/** The whole app: language, routing and the public price list around the page for the current address. */
export function App(props: { languageStorage: LanguageStorage; browserLanguage: string }) {
  return (
    <I18nProvider storage={props.languageStorage} browserLanguage={props.browserLanguage}>
      <RouterProvider>
        <PublicModelsProvider>
          <AppLayout>
            <CurrentPage />
          </AppLayout>
        </PublicModelsProvider>
      </RouterProvider>
    </I18nProvider>
  );
}

function CurrentPage() {
  const { location } = useRouter();
  const Page = pages[matchRoute(location.pathname)];
  return <Page />;
}
