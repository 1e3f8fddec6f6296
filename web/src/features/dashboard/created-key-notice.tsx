import type { CreatedApiKey } from '../../../../contract/api-keys.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { CopyButton } from '../../ui/copy-button.tsx';

/** The new key, shown this once, with a copy button and a plain warning that it will not be shown again. */
export function CreatedKeyNotice(props: { created: CreatedApiKey; onDismiss: () => void }) {
  const { messages } = useI18n();
  const text = messages.dashboard;
  return (
    <div className="created-key" role="status" data-created-key>
      <h3>{text.createdTitle}</h3>
      <p className="created-key__warning">{text.createdWarning}</p>
      <div className="created-key__value">
        <code>{props.created.key}</code>
        <CopyButton text={props.created.key} accessibleLabel={text.copyKey} />
      </div>
      <button type="button" className="button button--secondary" onClick={props.onDismiss}>
        {text.dismissKey}
      </button>
    </div>
  );
}
