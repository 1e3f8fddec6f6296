import { modelSyncSettingsSchema, type ModelSyncSettings } from '../../../contract/operator-model-sync.ts';
import type { Database } from '../db/database.ts';
import { claimInstanceSetting, findInstanceSetting, putInstanceSetting } from '../db/instance-settings.ts';
import type { Clock } from '../lib/clock.ts';
import { applyModelSync, previewModelSync, type ModelSyncDeps } from './model-sync.ts';

const defaultSettings: ModelSyncSettings = { interval_hours: 0, auto_add: 'off' };
const hourMs = 3_600_000;

/** The stored sync schedule, or the default (off, no auto-add). */
export async function getModelSyncSettings(db: Database): Promise<ModelSyncSettings> {
  const stored = await findInstanceSetting(db, 'model_sync_settings');
  if (stored === undefined) return defaultSettings;
  const [interval, autoAdd] = stored.split(' ');
  const parsed = modelSyncSettingsSchema.safeParse({ interval_hours: Number(interval), auto_add: autoAdd });
  return parsed.success ? parsed.data : defaultSettings;
}

export async function setModelSyncSettings(
  deps: { db: Database; clock: Clock },
  settings: ModelSyncSettings,
): Promise<ModelSyncSettings> {
  const value = `${settings.interval_hours} ${settings.auto_add}`;
  await putInstanceSetting(deps.db, { name: 'model_sync_settings', value, nowMs: deps.clock.nowMs() });
  return getModelSyncSettings(deps.db);
}

/**
 * One tick of the schedule: when it is on and its interval has passed since the last run, this node claims the run
 * (a compare-and-set on the last run's time, so of several nodes one runs it) and syncs. With `auto_add:
 * "new_versions"` it adds the later versions of offered lines; every other change waits for an operator. Returns
 * the ids it added and how many changes wait, or undefined when it was not this node's turn.
 */
export async function runScheduledModelSync(deps: ModelSyncDeps) {
  const settings = await getModelSyncSettings(deps.db);
  if (settings.interval_hours === 0) return undefined;
  const nowMs = deps.clock.nowMs();
  const lastRun = await findInstanceSetting(deps.db, 'model_sync_last_run');
  if (lastRun !== undefined && nowMs - Number(lastRun) < settings.interval_hours * hourMs) return undefined;
  const isMine = await claimInstanceSetting(deps.db, {
    name: 'model_sync_last_run',
    expected: lastRun,
    value: String(nowMs),
    nowMs,
  });
  if (!isMine) return undefined;
  const added =
    settings.auto_add === 'off'
      ? []
      : (await applyModelSync(deps, { apply: 'all', onlyNewVersions: true })).results
          .filter((result) => result.outcome === 'applied')
          .map((result) => result.id);
  const report = await previewModelSync(deps);
  const pending = report.new_models.length + report.list_price_changes.length + report.unlisted_models.length;
  return { added, pending, priceSource: report.price_source };
}

/** Ticks the schedule every `tickMs` until stopped; a failed tick is reported and the next one tries again. */
export function scheduleModelSync(input: {
  tickMs: number;
  run: () => Promise<unknown>;
  onError: (error: unknown) => void;
}): { stop: () => void } {
  const timer = setInterval(() => {
    input.run().catch(input.onError);
  }, input.tickMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
