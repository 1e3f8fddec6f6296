import { useI18n } from '../i18n/i18n-provider.tsx';
import { Link } from '../router/link.tsx';
import { routePaths } from '../router/match-route.ts';
import { usePageTitle } from '../router/use-page-title.ts';

/** `/chat/encryption`: what the chat encrypts, what it cannot hide, deletion, a lost passphrase, the limits. */
export function ChatEncryptionPage() {
  const { messages } = useI18n();
  const text = messages.encryption;
  usePageTitle(text.title);
  return (
    <div className="page container container--narrow encryption-page">
      <h1>{text.title}</h1>
      <p className="page__lead">{text.lead}</p>
      <h2>{text.encryptedTitle}</h2>
      <ul>
        {text.encryptedItems.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <h2>{text.notEncryptedTitle}</h2>
      <ul>
        {text.notEncryptedItems.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <h2>{text.deleteTitle}</h2>
      <p>{text.deleteText}</p>
      <h2>{text.forgetTitle}</h2>
      <p>{text.forgetText}</p>
      <h2>{text.limitsTitle}</h2>
      <ul>
        {text.limitsItems.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p>
        <Link to={routePaths.chat}>{messages.nav.chat}</Link>
      </p>
    </div>
  );
}
