import { useEffect, useState } from 'react';
import type { RevenueReport } from '../../../../contract/operator.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { getRevenue } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { RecentCallsTable } from './recent-calls-table.tsx';

/** Revenue per day (calls and subscriptions stacked) and per model, as SVG bar charts. */
export function RevenuePanel() {
  const text = useOperatorMessages();
  const [report, setReport] = useState<RevenueReport>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    getRevenue({ signal: controller.signal }).then(setReport, (failure: unknown) => {
      if (!controller.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure));
    });
    return () => controller.abort();
  }, []);
  if (error) return <p className="notice notice--error" role="alert">{`${text.failed} ${error}`}</p>;
  if (!report) return <p role="status">{text.loading}</p>;
  return (
    <section className="operator-panel" aria-label={text.tabs.revenue}>
      <h2>{text.revenue.perDay}</h2>
      <p>
        {text.revenue.total}: <strong data-field="revenue-total">{formatUsd(report.total_usd)}</strong>
      </p>
      <DailyChart report={report} />
      <p className="operator-legend">
        <span className="operator-legend__usage">■</span> {text.revenue.usage}{' '}
        <span className="operator-legend__subscriptions">■</span> {text.revenue.subscriptions}
      </p>
      <h2>{text.revenue.perModel}</h2>
      {report.models.length === 0 ? <p>{text.revenue.none}</p> : <ModelChart report={report} />}
      <RecentCallsTable />
    </section>
  );
}

function DailyChart(props: { report: RevenueReport }) {
  const { days } = props.report;
  const width = 600;
  const plotHeight = 160;
  const top = Math.max(...days.map((day) => day.total_usd), 0.000001);
  const barWidth = width / Math.max(days.length, 1);
  const first = days[0];
  const last = days.at(-1);
  return (
    <svg className="operator-chart" viewBox={`0 0 ${width} ${plotHeight + 18}`} role="img" aria-label="revenue per day">
      {days.map((day, index) => {
        const usageHeight = (day.usage_usd / top) * (plotHeight - 4);
        const subscriptionHeight = (day.subscriptions_usd / top) * (plotHeight - 4);
        return (
          <g key={day.date} data-date={day.date}>
            <title>{`${day.date}: ${formatUsd(day.total_usd)}`}</title>
            <rect
              className="operator-chart__usage"
              x={index * barWidth + 1}
              y={plotHeight - usageHeight}
              width={Math.max(barWidth - 2, 1)}
              height={usageHeight}
            />
            <rect
              className="operator-chart__subscriptions"
              x={index * barWidth + 1}
              y={plotHeight - usageHeight - subscriptionHeight}
              width={Math.max(barWidth - 2, 1)}
              height={subscriptionHeight}
            />
          </g>
        );
      })}
      <line className="operator-chart__axis" x1={0} y1={plotHeight + 0.5} x2={width} y2={plotHeight + 0.5} />
      <text x={0} y={plotHeight + 15} className="operator-chart__label">
        {first?.date}
      </text>
      <text x={width} y={plotHeight + 15} textAnchor="end" className="operator-chart__label">
        {last?.date}
      </text>
      <text x={0} y={12} className="operator-chart__label">
        {formatUsd(top === 0.000001 ? 0 : top)}
      </text>
    </svg>
  );
}

function ModelChart(props: { report: RevenueReport }) {
  const text = useOperatorMessages();
  const models = props.report.models.slice(0, 12);
  const top = Math.max(...models.map((model) => model.revenue_usd), 0.000001);
  const rowHeight = 22;
  return (
    <svg
      className="operator-chart"
      viewBox={`0 0 600 ${Math.max(models.length, 1) * rowHeight}`}
      role="img"
      aria-label="revenue per model"
    >
      {models.map((model, index) => (
        <g key={model.model} transform={`translate(0 ${index * rowHeight})`}>
          <title>{`${model.model}: ${formatUsd(model.revenue_usd)}, ${text.revenue.requests} ${model.requests}`}</title>
          <rect
            className="operator-chart__usage"
            x={200}
            y={3}
            width={(model.revenue_usd / top) * 300}
            height={rowHeight - 6}
          />
          <text x={0} y={rowHeight - 7} className="operator-chart__label">
            {model.model}
          </text>
          <text x={590} y={rowHeight - 7} textAnchor="end" className="operator-chart__label">
            {formatUsd(model.revenue_usd)}
          </text>
        </g>
      ))}
    </svg>
  );
}
