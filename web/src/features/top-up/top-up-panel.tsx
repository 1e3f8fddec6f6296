import './top-up.css';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { TopUpForm } from './top-up-form.tsx';
import { TopUpHistory } from './top-up-history.tsx';

/** The dashboard's top-up panel: the form that sends the user to the provider's page, and the payment history. */
export function TopUpPanel(props: { refreshKey: string }) {
  const text = useI18n().messages.topUp;
  return (
    <section
      className="card dashboard__panel dashboard__panel--wide"
      aria-labelledby="top-up-title"
      data-panel="top-up"
    >
      <h2 id="top-up-title">{text.title}</h2>
      <p>{text.lead}</p>
      <TopUpForm />
      <h3>{text.historyTitle}</h3>
      <TopUpHistory refreshKey={props.refreshKey} />
    </section>
  );
}
