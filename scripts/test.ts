import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { startTestServices } from './test-services.ts';

/**
 * The whole test suite, as CI runs it: system services, type check, lint, format check, then every test
 * (unit, integration on SQLite and PostgreSQL, end-to-end with the OpenAI SDK, browser) against a throwaway
 * PostgreSQL and Redis. Ends with one summary line: `tests: N passed, N failed`.
 */
const testPatterns = [
  'server/**/*.test.ts',
  'simulators/**/*.test.ts',
  'contract/**/*.test.ts',
  'web/test/**/*.test.ts',
  'scripts/**/*.test.ts',
];

function step(name: string, command: string, args: readonly string[]): void {
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stdout.write(`\n${name} failed (exit ${result.status ?? result.signal})\ntests: 0 passed, 1 failed\n`);
    process.exit(1);
  }
}

step('system packages (PostgreSQL, Redis, Chromium, Python venv, Go)', 'bash', ['scripts/ensure-system-packages.sh']);
step('build web app', 'node_modules/.bin/vite', ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']);
step('type check', 'node_modules/.bin/tsc', ['--noEmit', '-p', 'tsconfig.json']);
step('lint', 'node_modules/.bin/eslint', ['.']);
step('format check', 'node_modules/.bin/prettier', ['--check', '--log-level', 'warn', '.']);

process.stdout.write('\n== tests\n');
const services = await startTestServices();
mkdirSync('test-artifacts', { recursive: true });
const child = spawn(
  process.execPath,
  ['--test', '--test-concurrency=3', '--test-reporter=spec', '--test-timeout=120000', ...testPatterns],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      TEST_POSTGRES_URL: services.postgresUrl,
      TEST_REDIS_URL: services.redisUrl,
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
services.stop();
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
