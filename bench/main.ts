import { cpus, loadavg } from 'node:os';
import { parseBenchOptions, usage, type BenchOptions } from './bench-options.ts';
import { ensureWrk } from './ensure-wrk.ts';
import { explainMisses } from './explain-misses.ts';
import { buildReportRows, formatTable } from './report.ts';
import { runPhases } from './run-phases.ts';
import { startSystems } from './start-systems.ts';

/**
 * `npm run bench`: the full paid request path against the mock upstream alone and a raw Node proxy floor, on
 * loopback, bounded in time; prints one table of figures beside their targets. See docs/benchmarks.md.
 */
const hardLimitMs = 10 * 60_000;
const cleanups: (() => Promise<void>)[] = [];
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function main(options: BenchOptions): Promise<void> {
  const startedMs = performance.now();
  if (options.phases.has('throughput')) ensureWrk(log);
  const loadAtStart = loadavg();
  const systems = await startSystems({
    options,
    environment: { postgresUrl: process.env.BENCH_POSTGRES_URL, redisUrl: process.env.BENCH_REDIS_URL },
    cleanups,
    log,
  });
  const results = await runPhases(options, systems, log);
  const rows = buildReportRows(results);
  const formatLoad = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  process.stdout.write(
    [
      '',
      `Gateway benchmark (${options.isQuick ? 'quick smoke run' : 'full run'}), ${new Date().toISOString()}`,
      `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}; Node ${process.version}; ` +
        `load average ${formatLoad(loadAtStart)} at start, ${formatLoad(loadavg())} at end`,
      `Added = the system's percentile minus the upstream's own; the systems take turns, ${options.durations.rounds} round(s) per figure.`,
      '',
      formatTable(rows),
      '',
      explainMisses(rows),
      '',
      `Finished in ${((performance.now() - startedMs) / 1000).toFixed(0)} s.`,
      '',
    ].join('\n'),
  );
}

async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch((error: unknown) =>
      log(`clean-up failed: ${error instanceof Error ? error.message : error}`),
    );
  }
}

let options: BenchOptions;
try {
  options = parseBenchOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
  process.exit(2);
}
const watchdog = setTimeout(() => {
  log(`stopped: the run took longer than ${hardLimitMs / 60_000} minutes`);
  cleanUp().finally(() => process.exit(1));
}, hardLimitMs);
watchdog.unref();
try {
  await main(options);
} catch (error) {
  process.exitCode = 1;
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  clearTimeout(watchdog);
  await cleanUp();
}
