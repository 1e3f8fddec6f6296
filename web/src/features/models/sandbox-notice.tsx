import { useI18n } from '../../i18n/i18n-provider.tsx';

export const sandboxNoticeId = 'sandbox-notice';

/** Says plainly that answers come from a simulator while the gateway runs in sandbox mode. */
export function SandboxNotice() {
  const { messages } = useI18n();
  return (
    <p id={sandboxNoticeId} className="notice notice--sandbox" role="note">
      <span className="notice__icon" aria-hidden="true">
        ⚠
      </span>
      <span>{messages.models.sandboxNotice}</span>
    </p>
  );
}
