import './docs.css';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { CopyButton } from '../../ui/copy-button.tsx';

/** The two equivalent base addresses with copy buttons, and when to use the direct one. */
export function BaseAddresses(props: { publicBaseUrl: string; directBaseUrl: string }) {
  const { messages } = useI18n();
  const text = messages.docs;
  const addresses = [
    { id: 'public', url: props.publicBaseUrl, title: text.publicBaseUrlTitle, description: text.publicBaseUrlText },
    { id: 'direct', url: props.directBaseUrl, title: text.directBaseUrlTitle, description: text.directBaseUrlText },
  ] as const;
  return (
    <ul className="base-addresses">
      {addresses.map((address) => (
        <li key={address.id} className="base-address card" data-base-url={address.id}>
          <h3 className="base-address__title">{address.title}</h3>
          <div className="base-address__value">
            <code className="base-address__url">{address.url}</code>
            <CopyButton text={address.url} accessibleLabel={text.copyAddress(address.title)} />
          </div>
          <p className="base-address__text">{address.description}</p>
        </li>
      ))}
    </ul>
  );
}
