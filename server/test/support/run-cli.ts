import { spawn } from 'node:child_process';
import type { Config } from '../../src/config/config.ts';

export type CliResult = { exitCode: number; stdout: string; stderr: string };

const cliPath = new URL('../../src/cli/main.ts', import.meta.url).pathname;

/** Runs the operator CLI as its own process against the same database as a test gateway. */
export function runCli(
  config: Config,
  args: readonly string[],
  extraEnvironment: Readonly<Record<string, string>> = {},
): Promise<CliResult> {
  const environment: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATA_DIR: config.dataDir,
    ...(config.database.kind === 'postgres' ? { DATABASE_URL: config.database.url } : {}),
    // Tests stay on loopback: `model sync` reads the bundled price data unless a test serves its own file.
    PRICE_DATA_URL: 'off',
    ...extraEnvironment,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', cliPath, ...args], {
      env: environment,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ exitCode: code ?? 1, stdout, stderr }));
  });
}
