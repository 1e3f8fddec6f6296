import { parseArgs } from 'node:util';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import type { SecretBox } from '../lib/secret-box.ts';

/** What every CLI command gets: the open database and the means to write output. */
export type CliContext = {
  db: Database;
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  secretBox: () => SecretBox;
  print: (line: string) => void;
};

/** A wrong or missing argument: printed with the usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; required?: boolean }>;

/** Parses `--name value` options strictly; unknown or missing options are a UsageError. */
export function parseOptions<Spec extends OptionSpec>(
  args: readonly string[],
  spec: Spec,
): { [Key in keyof Spec]: Spec[Key]['type'] extends 'boolean' ? boolean : string | undefined } {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(Object.entries(spec).map(([name, option]) => [name, { type: option.type }]));
    values = parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  for (const [name, option] of Object.entries(spec)) {
    if (option.required && (values[name] === undefined || values[name] === '')) {
      throw new UsageError(`missing --${name}`);
    }
    if (option.type === 'boolean') values[name] = values[name] === true;
  }
  return values as never;
}

/** A non-negative decimal number option, e.g. `--usd 12.5`. */
export function parseNonNegativeNumber(name: string, text: string): number {
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !Number.isFinite(value)) {
    throw new UsageError(`--${name} must be a non-negative number, got "${text}"`);
  }
  return value;
}

export function parseInteger(name: string, text: string, bounds: { min: number; max: number }): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || value < bounds.min || value > bounds.max) {
    throw new UsageError(`--${name} must be a whole number from ${bounds.min} to ${bounds.max}, got "${text}"`);
  }
  return value;
}
