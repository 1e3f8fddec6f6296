import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The environment `npm start` gives the gateway (the `NAME=${NAME:-value}` assignments in front of its command in
 * package.json), so the benchmark measures the process an operator runs, from the one place that sets it.
 */
export function readStartEnvironment(): Record<string, string> {
  const start = readStartScript();
  const environment: Record<string, string> = {};
  for (const match of start.matchAll(/(?:^|\s)([A-Z_]+)=\$\{\1:-([^}]*)\}(?=\s)/g)) {
    const [, name, value] = match;
    if (name && value !== undefined) environment[name] = process.env[name] ?? value;
  }
  return environment;
}

/**
 * The Node flags `npm start` puts on the gateway's command line (`exec node <flags> scripts/start.ts`), for the ones
 * NODE_OPTIONS does not accept, such as `--min-semi-space-size`.
 */
export function readStartNodeFlags(): string[] {
  const match = /\bexec node((?:\s+--\S+)*)\s+scripts\/start\.ts/.exec(readStartScript());
  return (match?.[1] ?? '').split(/\s+/).filter((flag) => flag !== '');
}

function readStartScript(): string {
  const packagePath = path.resolve(import.meta.dirname, '..', 'package.json');
  const { scripts } = JSON.parse(readFileSync(packagePath, 'utf8')) as { scripts: Record<string, string> };
  return scripts.start ?? '';
}
