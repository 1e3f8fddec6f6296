import type { CryptoDepositView, TopUpOrderView } from '../../../../contract/payments.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatUsd } from '../../lib/format-usd.ts';
import { CopyButton } from '../../ui/copy-button.tsx';
import { QrCodeSvg } from './qr-code-svg.tsx';
import { formatCountdown, useCountdown } from './use-countdown.ts';
import { useTopUpOrder } from './use-top-up-order.ts';
import { UsdtSandboxControls } from './usdt-sandbox-controls.tsx';
import { doneSteps, isOpenUsdtOrder, toUsdtStage, usdtSteps } from './usdt-deposit-stage.ts';

const pollMs = 3000;

/**
 * A USDT (TRC20) order's deposit: the address as text and QR code, the exact amount, both with copy buttons, the
 * warning that only USDT on TRON counts, the time left, and the order's progress, asked again every few seconds
 * while money can still arrive.
 */
export function UsdtDeposit(props: { orderId: string }) {
  const { messages } = useI18n();
  const state = useTopUpOrder(props.orderId, pollMs, isOpenUsdtOrder);
  if (state.status === 'loading') return <p className="status">{messages.common.loading}</p>;
  if (state.status === 'error') {
    return (
      <p className="notice notice--error" role="alert">
        {state.message}
      </p>
    );
  }
  const deposit = state.order.crypto_deposit;
  if (!deposit) return null;
  return <DepositView order={state.order} deposit={deposit} />;
}

function DepositView(props: { order: TopUpOrderView; deposit: CryptoDepositView }) {
  const text = useI18n().messages.topUp.usdt;
  const { order, deposit } = props;
  const stage = toUsdtStage(order);
  return (
    <div className="usdt-deposit" data-usdt-deposit={order.id} data-stage={stage} data-status={order.status}>
      <p className="notice usdt-deposit__warning" data-usdt-warning>
        {text.warning}
      </p>
      <div className="usdt-deposit__body">
        <QrCodeSvg text={deposit.address} label={text.qrLabel} />
        <dl className="usdt-deposit__facts">
          <dt>{text.amountLabel}</dt>
          <dd>
            <code data-field="amount">{deposit.amount}</code> USDT{' '}
            <CopyButton text={deposit.amount} accessibleLabel={text.copyAmount} />
          </dd>
          <dt>{text.addressLabel}</dt>
          <dd>
            <code className="usdt-deposit__address" data-field="address">
              {deposit.address}
            </code>{' '}
            <CopyButton text={deposit.address} accessibleLabel={text.copyAddress} />
          </dd>
          <dt>{text.networkLabel}</dt>
          <dd>{text.network}</dd>
        </dl>
      </div>
      {isOpenUsdtOrder(order) && <Countdown expiresAt={order.expires_at} />}
      <ol className="usdt-deposit__steps">
        {usdtSteps.map((step, index) => (
          <li key={step} data-step={step} data-done={index < doneSteps(stage)}>
            {text.steps[step]}
          </li>
        ))}
      </ol>
      <p className={stage === 'expired' || stage === 'failed' ? 'notice notice--error' : 'status'} role="status">
        {stage === 'partial'
          ? text.stages.partial(`${deposit.received_micro / 1_000_000}`, deposit.amount)
          : stage === 'credited' || stage === 'credited_late'
            ? text.stages[stage](formatUsd(order.credit_usd))
            : text.stages[stage]}
      </p>
      {order.is_sandbox && <p className="notice notice--sandbox">{text.sandbox}</p>}
      {order.is_sandbox && isOpenUsdtOrder(order) && <UsdtSandboxControls order={order} />}
    </div>
  );
}

function Countdown(props: { expiresAt: string }) {
  const text = useI18n().messages.topUp.usdt;
  const left = useCountdown(props.expiresAt);
  return (
    <p className="usdt-deposit__countdown" data-countdown={left}>
      {left > 0 ? text.timeLeft(formatCountdown(left)) : text.timeUp}
    </p>
  );
}
