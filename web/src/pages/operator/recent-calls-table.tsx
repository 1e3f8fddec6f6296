import { useEffect, useState } from 'react';
import type { OperatorUsageRecord } from '../../../../contract/operator.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { listRecentCalls } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

/** The latest calls of every account: who, which model, tokens and cost (never any text). */
export function RecentCallsTable() {
  const text = useOperatorMessages();
  const [calls, setCalls] = useState<OperatorUsageRecord[]>();
  useEffect(() => {
    const controller = new AbortController();
    listRecentCalls({ signal: controller.signal }).then(
      (page) => setCalls(page.data),
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  if (!calls || calls.length === 0) return null;
  return (
    <div className="operator-table-wrap">
      <h2>{text.revenue.recentCalls}</h2>
      <table className="operator-table">
        <thead>
          <tr>
            <th>{text.revenue.time}</th>
            <th>{text.revenue.account}</th>
            <th>{text.prices.model}</th>
            <th>{text.revenue.tokens}</th>
            <th>{text.revenue.cost}</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => (
            <tr key={call.request_id} data-request-id={call.request_id}>
              <td>{new Date(call.created_at).toLocaleString()}</td>
              <td>{call.user_email}</td>
              <td>{call.model}</td>
              <td>
                {call.input_tokens} / {call.output_tokens}
              </td>
              <td>{formatUsd(call.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
