import { useI18n } from '../../i18n/i18n-provider.tsx';

/** Where top-ups will be: says plainly that payments are not available yet, and has no form that could take money. */
export function TopUpPanel() {
  const { messages } = useI18n();
  return (
    <section
      className="card dashboard__panel dashboard__panel--wide"
      aria-labelledby="top-up-title"
      data-panel="top-up"
    >
      <h2 id="top-up-title">{messages.dashboard.topUpTitle}</h2>
      <p className="notice notice--info" role="note">
        {messages.dashboard.topUpText}
      </p>
    </section>
  );
}
