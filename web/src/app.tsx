import type { ReactNode } from 'react';
import { DraftProvider } from './features/auth/draft-provider.tsx';
import { SessionProvider } from './features/auth/session-provider.tsx';
import { UnsavedConversationsProvider } from './features/chat/conversations/unsaved-conversations.tsx';
import { ChatVaultProvider } from './features/chat/vault/chat-vault-provider.tsx';
import { AppLayout } from './features/shell/app-layout.tsx';
import { PublicModelsProvider } from './features/models/public-models-provider.tsx';
import { I18nProvider, type LanguageStorage } from './i18n/i18n-provider.tsx';
import { type RouteId, matchRoute } from './router/match-route.ts';
import { OperatorConsolePage } from './pages/operator/operator-console-page.tsx';
import { RouterProvider, useRouter } from './router/router-provider.tsx';
import { ChatEncryptionPage } from './routes/chat-encryption-page.tsx';
import { ChatPage } from './routes/chat-page.tsx';
import { DashboardPage } from './routes/dashboard-page.tsx';
import { DocsPage } from './routes/docs-page.tsx';
import { HomePage } from './routes/home-page.tsx';
import { ModelsPage } from './routes/models-page.tsx';
import { NotFoundPage } from './routes/not-found-page.tsx';
import { SignInPage } from './routes/sign-in-page.tsx';
import { SignUpPage } from './routes/sign-up-page.tsx';
import { TopUpReceiptPage } from './features/top-up/top-up-receipt-page.tsx';
import { TopUpReturnPage } from './features/top-up/top-up-return-page.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './routes/password-reset-pages.tsx';
import { VerifyEmailPage } from './routes/verify-email-page.tsx';

const pages = {
  home: HomePage,
  models: ModelsPage,
  docs: DocsPage,
  signIn: SignInPage,
  signUp: SignUpPage,
  dashboard: DashboardPage,
  chat: ChatPage,
  chatEncryption: ChatEncryptionPage,
  operator: OperatorConsolePage,
  topUpReturn: TopUpReturnPage,
  topUpReceipt: TopUpReceiptPage,
  verifyEmail: VerifyEmailPage,
  forgotPassword: ForgotPasswordPage,
  resetPassword: ResetPasswordPage,
  notFound: NotFoundPage,
} as const satisfies Record<RouteId, () => ReactNode>;

/**
 * The whole app: language, routing, the session (with in-memory drafts, the unlocked chat key and unsaved
 * conversations, which outlive a trip to sign-in) and the public price list around the page for the current address.
 */
export function App(props: { languageStorage: LanguageStorage; browserLanguage: string }) {
  return (
    <I18nProvider storage={props.languageStorage} browserLanguage={props.browserLanguage}>
      <RouterProvider>
        <SessionProvider>
          <DraftProvider>
            <ChatVaultProvider>
              <UnsavedConversationsProvider>
                <PublicModelsProvider>
                  <AppLayout>
                    <CurrentPage />
                  </AppLayout>
                </PublicModelsProvider>
              </UnsavedConversationsProvider>
            </ChatVaultProvider>
          </DraftProvider>
        </SessionProvider>
      </RouterProvider>
    </I18nProvider>
  );
}

function CurrentPage() {
  const { location } = useRouter();
  const Page = pages[matchRoute(location.pathname)];
  return <Page />;
}
