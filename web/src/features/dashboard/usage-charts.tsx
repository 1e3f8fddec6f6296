import type { DailyUsage } from '../../../../contract/usage.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatUsd } from '../../lib/format-usd.ts';

type Bar = { label: string; costUsd: number; requests: number };

/** Sums the daily rows per day and per model; micro-dollar integers, so the sums are exact. */
export function summarizeDailyUsage(rows: readonly DailyUsage[]): { perDay: Bar[]; perModel: Bar[] } {
  const add = (map: Map<string, { micros: number; requests: number }>, label: string, row: DailyUsage) => {
    const current = map.get(label) ?? { micros: 0, requests: 0 };
    map.set(label, {
      micros: current.micros + Math.round(row.cost_usd * 1e6),
      requests: current.requests + row.requests,
    });
  };
  const days = new Map<string, { micros: number; requests: number }>();
  const models = new Map<string, { micros: number; requests: number }>();
  for (const row of rows) {
    add(days, row.date, row);
    add(models, row.model, row);
  }
  const toBars = (map: typeof days) =>
    [...map].map(([label, value]) => ({ label, costUsd: value.micros / 1e6, requests: value.requests }));
  return {
    perDay: toBars(days).sort((a, b) => a.label.localeCompare(b.label)),
    perModel: toBars(models).sort((a, b) => b.costUsd - a.costUsd),
  };
}

/** Cost per day (columns) and per model (bars), as plain SVG; each bar names its value for screen readers. */
export function UsageCharts(props: { rows: readonly DailyUsage[] }) {
  const { messages } = useI18n();
  const text = messages.dashboard;
  const { perDay, perModel } = summarizeDailyUsage(props.rows);
  if (perDay.length === 0) return <p className="status">{text.chartEmpty}</p>;
  return (
    <div className="usage-charts">
      <figure className="usage-chart" data-chart="per-day">
        <figcaption>{text.chartPerDay}</figcaption>
        <DayColumns
          bars={perDay}
          describe={(bar) => text.chartDayLabel(bar.label, formatUsd(bar.costUsd), bar.requests)}
        />
      </figure>
      <figure className="usage-chart" data-chart="per-model">
        <figcaption>{text.chartPerModel}</figcaption>
        <ModelBars bars={perModel} />
      </figure>
    </div>
  );
}

function DayColumns(props: { bars: Bar[]; describe: (bar: Bar) => string }) {
  const width = 600;
  const height = 180;
  const labelHeight = 20;
  const max = Math.max(...props.bars.map((bar) => bar.costUsd), 1e-6);
  const slot = width / props.bars.length;
  const columnWidth = Math.max(2, Math.min(40, slot * 0.7));
  return (
    <svg viewBox={`0 0 ${width} ${height + labelHeight}`} className="usage-chart__svg" role="list">
      {props.bars.map((bar, index) => {
        const barHeight = Math.max(1, (bar.costUsd / max) * (height - 10));
        const x = index * slot + (slot - columnWidth) / 2;
        const isLabelled = props.bars.length <= 10 || index % Math.ceil(props.bars.length / 10) === 0;
        return (
          <g key={bar.label} role="listitem" aria-label={props.describe(bar)} data-day={bar.label}>
            <title>{props.describe(bar)}</title>
            <rect x={x} y={height - barHeight} width={columnWidth} height={barHeight} className="usage-chart__bar" />
            {isLabelled && (
              <text x={x + columnWidth / 2} y={height + 15} textAnchor="middle" className="usage-chart__label">
                {bar.label.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function ModelBars(props: { bars: Bar[] }) {
  const max = Math.max(...props.bars.map((bar) => bar.costUsd), 1e-6);
  return (
    <ul className="model-bars">
      {props.bars.map((bar) => (
        <li key={bar.label} className="model-bars__item" data-model={bar.label}>
          <span className="model-bars__name">{bar.label}</span>
          <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="model-bars__track" aria-hidden="true">
            <rect
              x={0}
              y={0}
              width={Math.max(0.5, (bar.costUsd / max) * 100)}
              height={10}
              className="usage-chart__bar"
            />
          </svg>
          <span className="model-bars__value">{formatUsd(bar.costUsd)}</span>
        </li>
      ))}
    </ul>
  );
}
