import '../features/chat/chat.css';
import { RequireSignIn } from '../features/auth/require-sign-in.tsx';
import { ChatWorkspace } from '../features/chat/chat-workspace.tsx';
import { VaultGate } from '../features/chat/vault/vault-gate.tsx';
import { usePublicModels } from '../features/models/public-models-provider.tsx';
import { useI18n } from '../i18n/i18n-provider.tsx';
import { usePageTitle } from '../router/use-page-title.ts';

/**
 * `/chat` (signed in): the browser chat over the public `/v1` API with the session's chat key. History is
 * encrypted here before it is stored, so the page first asks for the chat passphrase.
 */
export function ChatPage() {
  const { messages } = useI18n();
  usePageTitle(messages.chat.title);
  const { state } = usePublicModels();
  return (
    <div className="page container chat-page">
      <h1 className="visually-hidden">{messages.chat.title}</h1>
      <RequireSignIn>
        {() => (
          <VaultGate>
            {(accountKey) =>
              state.status === 'ready' ? (
                <ChatWorkspace
                  accountKey={accountKey}
                  models={state.list.data.filter((model) => model.kind === 'text')}
                />
              ) : (
                <p className="status">{state.status === 'error' ? state.message : messages.common.loading}</p>
              )
            }
          </VaultGate>
        )}
      </RequireSignIn>
    </div>
  );
}
