import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { runChecks } from './check.ts';
import { buildWebApp, runStep } from './run-step.ts';
import { laneNames, laneNeeds, sortIntoLanes, type LaneName } from './test-lanes.ts';
import { startTestServices, type TestServices } from './test-services.ts';

/**
 * `npm test` (no arguments), as CI runs it: system services, web build, type check, lint, format check, then every
 * lane's tests in one run against a throwaway PostgreSQL and Redis. `npm run test:<lane> [-- files…]` runs one lane
 * (scripts/test-lanes.ts), or the given files of it, starting only what that lane needs. Either way the run ends with
 * one summary line: `tests: N passed, N failed`.
 */
const requested = process.argv.slice(2);
const lanes = requested.filter((argument): argument is LaneName => laneNames.some((lane) => lane === argument));
const onlyFiles = requested.filter((argument) => argument.endsWith('.test.ts'));
const unknown = requested.filter(
  (argument) => !lanes.some((lane) => lane === argument) && !onlyFiles.includes(argument),
);
if (unknown.length > 0 || (onlyFiles.length > 0 && lanes.length !== 1)) {
  process.stdout.write(`usage: test.ts [${laneNames.join('|')} [files…]]; not understood: ${unknown.join(' ')}\n`);
  process.stdout.write('tests: 0 passed, 1 failed\n');
  process.exit(1);
}
const isWholeSuite = lanes.length === 0;
const chosenLanes: readonly LaneName[] = isWholeSuite ? laneNames : lanes;
const needsServices = chosenLanes.some((lane) => laneNeeds[lane].services);

if (isWholeSuite) {
  runStep('system packages (PostgreSQL, Redis, Chromium, Python venv, Go)', 'bash', [
    'scripts/ensure-system-packages.sh',
  ]);
}
if (chosenLanes.some((lane) => laneNeeds[lane].webBuild)) buildWebApp();
if (isWholeSuite) runChecks();

const filesByLane = sortIntoLanes(process.cwd());
const files = onlyFiles.length > 0 ? onlyFiles : chosenLanes.flatMap((lane) => filesByLane[lane]);
process.stdout.write(`\n== tests (${chosenLanes.join(', ')}: ${files.length} files)\n`);
const services: TestServices | undefined = needsServices ? await startTestServices() : undefined;
mkdirSync('test-artifacts', { recursive: true });
const child = spawn(
  process.execPath,
  ['--test', '--test-concurrency=3', '--test-reporter=spec', '--test-timeout=120000', ...files],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      ...(services ? { TEST_POSTGRES_URL: services.postgresUrl, TEST_REDIS_URL: services.redisUrl } : {}),
      LOG_LEVEL: 'silent',
    },
  },
);
let output = '';
child.stdout.on('data', (data: Buffer) => {
  output += data.toString();
  process.stdout.write(data);
});
const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
services?.stop();
const count = (label: string) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(output)?.[1] ?? 0);
const passed = count('pass');
// Nothing is skipped silently: a skipped or unfinished (todo) test counts as a failure.
const failed = count('fail') + count('cancelled') + count('skipped') + count('todo');
const total = count('tests');
if (total === 0) process.stdout.write('\nno test ran: that is a failure\n');
if (count('skipped') + count('todo') > 0)
  process.stdout.write('\na test was skipped or left todo: that is a failure\n');
process.stdout.write(
  `\ntests: ${passed} passed, ${exitCode === 0 && total > 0 ? failed : Math.max(failed, 1)} failed\n`,
);
process.exit(exitCode === 0 && total > 0 && failed === 0 ? 0 : 1);
