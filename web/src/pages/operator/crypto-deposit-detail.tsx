import type { OperatorPayment } from '../../../../contract/payments.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { usePaymentsMessages } from './payments-messages.ts';

/**
 * A USDT order opened in the console: the deposit address (with its child index under the operator's xpub, to find
 * it in the wallet), what was asked and received, a partly paid flag, and each credited transfer with its
 * transaction id linked to the block explorer and a flag when it came after the order expired.
 */
export function CryptoDepositDetail(props: { payment: OperatorPayment }) {
  const text = usePaymentsMessages();
  const { language } = useI18n();
  const { payment } = props;
  const deposit = payment.crypto_deposit;
  if (!deposit) return null;
  const isPartial = deposit.received_micro > 0 && deposit.received_micro < deposit.amount_micro;
  return (
    <div className="operator-payment__crypto" data-crypto-deposit>
      <p>
        {text.depositAddress}: <code data-field="address">{deposit.address}</code>
        {payment.derivation_index !== null && payment.derivation_index !== undefined && (
          <>
            {' '}
            · {text.derivationIndex}: <span data-field="derivation-index">{payment.derivation_index}</span>
          </>
        )}
      </p>
      <p>{text.usdtReceived(usdt(deposit.received_micro), usdt(deposit.amount_micro))}</p>
      {isPartial && (
        <p className="notice notice--error" data-flag="partial">
          {text.partiallyPaid}
        </p>
      )}
      <ul className="operator-payment__transfers">
        {(payment.crypto_transfers ?? []).map((transfer) => (
          <li key={transfer.tx_id} data-transfer={transfer.tx_id}>
            {transfer.explorer_url ? (
              <a href={transfer.explorer_url} target="_blank" rel="noreferrer noopener" data-field="tx">
                {transfer.tx_id}
              </a>
            ) : (
              <code data-field="tx">{transfer.tx_id}</code>
            )}{' '}
            · {usdt(transfer.amount_micro)} USDT → {formatUsd(transfer.credited_usd)} ·{' '}
            {formatDateTime(transfer.credited_at, language)}
            {transfer.is_late && (
              <span className="badge badge--sandbox" data-flag="late">
                {text.lateTransfer}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** 12_500_000 micro-USDT → "12.5". */
function usdt(micro: number): string {
  return String(micro / 1_000_000);
}
