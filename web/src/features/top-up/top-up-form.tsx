import { useEffect, useState, type FormEvent } from 'react';
import type { TopUpRequest } from '../../../../contract/payments.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { formatRateSource } from './format-rate-source.ts';
import { formatMinor, parseAmountMinor } from './parse-amount-minor.ts';
import { createTopUp } from './top-up-api.ts';
import type { TopUpMethod } from './top-up-methods.ts';
import { useTopUpQuote, type QuoteState } from './use-top-up-quote.ts';

/**
 * Pick a method, type an amount, see the quote the order will lock ("you pay 1,000.00 RUB, your balance gets
 * 10.52 USD"), then go to the provider's hosted page; a USDT order has no page and is handed to `onCryptoOrder`,
 * which shows its deposit address. An amount under the currency's minimum (learnt from the server's quotes) is
 * refused here before any order exists; the server refuses it too.
 */
export function TopUpForm(props: { methods: readonly TopUpMethod[]; onCryptoOrder: (orderId: string) => void }) {
  const { messages, language } = useI18n();
  const text = messages.topUp;
  const [chosenId, setChosenId] = useState<string>();
  const method = props.methods.find((option) => option.id === chosenId) ?? (props.methods[0] as TopUpMethod);
  const [amountText, setAmountText] = useState('');
  const [minimums, setMinimums] = useState<Partial<Record<string, number>>>({});
  const [failure, setFailure] = useState<string>();
  const [isRedirecting, setIsRedirecting] = useState(false);

  const amountMinor = parseAmountMinor(amountText, method.minorDigits);
  const minimum = minimums[method.currency];
  const isBelowMinimum = amountMinor !== undefined && minimum !== undefined && amountMinor < minimum;
  const request: TopUpRequest | undefined =
    amountMinor === undefined || isBelowMinimum
      ? undefined
      : { method: method.id, currency: method.currency, amount_minor: amountMinor };
  const quote = useTopUpQuote(request);
  const learntMinimum = quote.status === 'ready' ? quote.quote.minimum_minor : undefined;
  useEffect(() => {
    if (learntMinimum !== undefined) setMinimums((known) => ({ ...known, [method.currency]: learntMinimum }));
  }, [learntMinimum, method.currency]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!request || quote.status !== 'ready') return;
    setFailure(undefined);
    setIsRedirecting(true);
    try {
      const created = await createTopUp(request);
      if (created.order.crypto_deposit) {
        setIsRedirecting(false);
        props.onCryptoOrder(created.order.id);
        return;
      }
      if (created.order.confirmation_url === null) throw new Error(text.returnFailed);
      window.location.assign(created.order.confirmation_url);
    } catch (error) {
      setIsRedirecting(false);
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <form className="top-up-form" onSubmit={(event) => void submit(event)} data-top-up-form>
      <MethodPicker methods={props.methods} current={method} onPick={(option) => setChosenId(option.id)} />
      <label className="field">
        <span className="field__label">{text.amountLabel(method.currency)}</span>
        <input
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amountText}
          aria-invalid={amountText !== '' && (amountMinor === undefined || isBelowMinimum)}
          onChange={(event) => setAmountText(event.target.value)}
        />
        {minimum !== undefined && (
          <span className="field__hint">{text.minimumHint(formatMinor(minimum, method.currency))}</span>
        )}
      </label>
      {amountText !== '' && amountMinor === undefined && <p className="notice notice--error">{text.badAmount}</p>}
      {isBelowMinimum && minimum !== undefined && (
        <p className="notice notice--error" data-below-minimum>
          {text.belowMinimum(formatMinor(minimum, method.currency))}
        </p>
      )}
      <QuoteView state={quote} language={language} />
      {failure && (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button" disabled={quote.status !== 'ready' || isRedirecting}>
        {isRedirecting ? text.redirecting : text.pay}
      </button>
    </form>
  );
}

function MethodPicker(props: {
  methods: readonly TopUpMethod[];
  current: TopUpMethod;
  onPick: (method: TopUpMethod) => void;
}) {
  const text = useI18n().messages.topUp;
  return (
    <fieldset className="top-up-form__methods">
      <legend>{text.methodLabel}</legend>
      {props.methods.map((option) => (
        <button
          key={option.id}
          type="button"
          className={`button button--secondary top-up-form__method${option.id === props.current.id ? ' top-up-form__method--current' : ''}`}
          aria-pressed={option.id === props.current.id}
          data-method={option.id}
          onClick={() => props.onPick(option)}
        >
          {text.methods[option.id] ?? option.id}
        </button>
      ))}
    </fieldset>
  );
}

function QuoteView(props: { state: QuoteState; language: string }) {
  const text = useI18n().messages.topUp;
  const { state } = props;
  if (state.status === 'idle') return null;
  if (state.status === 'loading') return <p className="status">{text.quoting}</p>;
  if (state.status === 'error') {
    return (
      <p className="notice notice--error" role="alert" data-quote-error>
        {state.message}
      </p>
    );
  }
  const { quote } = state;
  return (
    <div className="top-up-form__quote" role="status" data-quote>
      <p>
        <strong>{text.quote(formatMinor(quote.amount_minor, quote.currency), formatUsd(quote.credit_usd))}</strong>
      </p>
      {quote.currency !== 'USD' && (
        <p>{text.quoteRate(quote.rate, quote.currency, formatRateSource(quote.rate_source, text))}</p>
      )}
      <p className="field__hint">{text.quoteExpires(formatDateTime(quote.expires_at, props.language))}</p>
      {quote.is_sandbox && (
        <p className="notice notice--sandbox" data-sandbox>
          {text.sandbox}
        </p>
      )}
    </div>
  );
}
