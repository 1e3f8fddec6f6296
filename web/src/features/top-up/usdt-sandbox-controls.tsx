import { useState } from 'react';
import type { SandboxTransferRequest, TopUpOrderView } from '../../../../contract/payments.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { sendSandboxTransfer } from './top-up-api.ts';

type SentTransfer = { id: string; kind: SandboxTransferRequest['action']; isConfirmed: boolean };

/**
 * Sandbox mode only: buttons that make the simulator pay this order (the exact amount, half of it, or a token named
 * USDT from another contract) and, on the simulated chain, confirm a transfer sent. The gateway learns of each
 * transfer as in production (its watcher, the processor's notification); these buttons credit nothing themselves.
 */
export function UsdtSandboxControls(props: { order: TopUpOrderView }) {
  const text = useI18n().messages.topUp.usdt.sandboxControls;
  const isOnChain = props.order.provider === 'tron';
  const [sent, setSent] = useState<readonly SentTransfer[]>([]);
  const [failure, setFailure] = useState<string>();
  const [isBusy, setIsBusy] = useState(false);

  const run = async (request: SandboxTransferRequest) => {
    setFailure(undefined);
    setIsBusy(true);
    try {
      const answer = await sendSandboxTransfer(props.order.id, request);
      const { transaction_id: id } = answer;
      if (request.action === 'confirm') {
        setSent((all) => all.map((one) => (one.id === request.transaction_id ? { ...one, isConfirmed: true } : one)));
      } else if (id !== null) {
        setSent((all) => [...all, { id, kind: request.action, isConfirmed: false }]);
      }
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setIsBusy(false);
    }
  };

  const sendButton = (action: SandboxTransferRequest['action'], label: string) => (
    <button
      type="button"
      className="button button--secondary button--small"
      data-sandbox-action={action}
      disabled={isBusy}
      onClick={() => void run({ action })}
    >
      {label}
    </button>
  );
  return (
    <div className="notice notice--sandbox usdt-sandbox" data-usdt-sandbox>
      <p>{isOnChain ? text.leadChain : text.leadProcessor}</p>
      <div className="usdt-deposit__sandbox">
        {sendButton('send_exact', text.sendExact)}
        {sendButton('send_smaller', text.sendSmaller)}
        {isOnChain && sendButton('send_look_alike', text.sendLookAlike)}
      </div>
      {sent.length > 0 && (
        <ul className="usdt-sandbox__sent">
          {sent.map((transfer) => (
            <li key={transfer.id} data-sandbox-transfer={transfer.id} data-confirmed={transfer.isConfirmed}>
              {text.kinds[transfer.kind]} <code>{transfer.id.slice(0, 12)}…</code>{' '}
              {transfer.isConfirmed ? (
                text.confirmed
              ) : (
                <button
                  type="button"
                  className="button button--small"
                  data-sandbox-confirm={transfer.id}
                  disabled={isBusy}
                  onClick={() => void run({ action: 'confirm', transaction_id: transfer.id })}
                >
                  {text.confirm}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {failure && (
        <p className="notice notice--error" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}
