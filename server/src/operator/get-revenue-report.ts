import type { RevenueQuery, RevenueReport } from '../../../contract/operator.ts';
import { formatDayNumber, parseUsageFilter } from '../accounts/parse-usage-filter.ts';
import type { Database } from '../db/database.ts';
import { summarizeDailyCost, summarizeDailyRevenue } from '../db/revenue.ts';
import { summarizeUsageByModel } from '../db/usage-across-accounts.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { Clock } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';

const msPerDay = 86_400_000;
const defaultDays = 30;
const maxDays = 400;

/**
 * Income per UTC day from the ledger's income accounts (calls and subscriptions) and per model from the usage
 * records, over `[from, to)` (default: the last 30 days up to the end of today), with the cost of goods and the
 * margin per day and per model from each usage record's route cost. Days without income are listed with zeros so a
 * chart has no gaps.
 */
export async function getRevenueReport(
  deps: { db: Database; clock: Clock },
  query: RevenueQuery,
): Promise<RevenueReport> {
  const filter = parseUsageFilter('', query);
  const endOfToday = (Math.floor(deps.clock.nowMs() / msPerDay) + 1) * msPerDay;
  const toMs = filter.toMs ?? endOfToday;
  const fromMs = filter.fromMs ?? toMs - defaultDays * msPerDay;
  if (toMs - fromMs > maxDays * msPerDay) {
    throw new InvalidRequestError(`The range may span at most ${maxDays} days.`, { param: 'from' });
  }
  const [days, models, costs] = await Promise.all([
    summarizeDailyRevenue(deps.db, { fromMs, toMs }),
    summarizeUsageByModel(deps.db, { fromMs, toMs }),
    summarizeDailyCost(deps.db, { fromMs, toMs }),
  ]);
  const byDay = new Map(days.map((day) => [day.dayNumber, day]));
  const costByDay = new Map(costs.map((cost) => [cost.dayNumber, cost.upstreamCostMicros]));
  const dayRows = [];
  for (let dayNumber = Math.floor(fromMs / msPerDay); dayNumber * msPerDay < toMs; dayNumber += 1) {
    const day = byDay.get(dayNumber);
    const usageMicros = day?.usageMicros ?? 0;
    const subscriptionMicros = day?.subscriptionMicros ?? 0;
    const costMicros = costByDay.get(dayNumber) ?? 0;
    dayRows.push({
      date: formatDayNumber(dayNumber),
      usage_usd: microsToUsd(usageMicros),
      subscriptions_usd: microsToUsd(subscriptionMicros),
      total_usd: microsToUsd(usageMicros + subscriptionMicros),
      cost_of_goods_usd: microsToUsd(costMicros),
      margin_usd: microsToUsd(usageMicros - costMicros),
    });
  }
  const totalMicros = days.reduce((sum, day) => sum + day.usageMicros + day.subscriptionMicros, 0);
  return {
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    total_usd: microsToUsd(totalMicros),
    cost_of_goods_usd: microsToUsd(costs.reduce((sum, cost) => sum + cost.upstreamCostMicros, 0)),
    days: dayRows,
    models: models.map((model) => ({
      model: model.modelId,
      requests: model.requests,
      input_tokens: model.inputTokens,
      output_tokens: model.outputTokens,
      image_count: model.imageCount,
      revenue_usd: microsToUsd(model.costMicros),
      cost_of_goods_usd: microsToUsd(model.upstreamCostMicros),
      margin_usd: microsToUsd(model.costMicros - model.upstreamCostMicros),
      margin_percent:
        model.costMicros === 0
          ? null
          : Math.round(((model.costMicros - model.upstreamCostMicros) / model.costMicros) * 10_000) / 100,
    })),
  };
}
