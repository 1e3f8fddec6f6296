import { spawnSync } from 'node:child_process';

/** Runs one step of a check or test run; a failing step ends the run with the closing summary line. */
export function runStep(name: string, command: string, args: readonly string[]): void {
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stdout.write(`\n${name} failed (exit ${result.status ?? result.signal})\ntests: 0 passed, 1 failed\n`);
    process.exit(1);
  }
}

export function buildWebApp(): void {
  runStep('build web app', 'node_modules/.bin/vite', ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']);
}
