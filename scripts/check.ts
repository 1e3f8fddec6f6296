import { runStep } from './run-step.ts';

/** `npm run check`: type check, lint and format check, the static half of `npm test`. */
export function runChecks(): void {
  runStep('type check', 'node_modules/.bin/tsc', ['--noEmit', '-p', 'tsconfig.json']);
  runStep('lint', 'node_modules/.bin/eslint', ['.']);
  runStep('format check', 'node_modules/.bin/prettier', ['--check', '--log-level', 'warn', '.']);
}

if (import.meta.main) {
  runChecks();
  process.stdout.write('\ncheck: types, lint and format are clean\n');
}
