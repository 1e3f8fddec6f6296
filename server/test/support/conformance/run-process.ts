import { spawn } from 'node:child_process';

export type ProcessResult = { exitCode: number; output: string };

/** Runs a program to its end, keeping stdout and stderr interleaved; never throws for a non-zero exit. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    child.on('error', (error) => resolve({ exitCode: -1, output: `${output}\n${command}: ${error.message}` }));
    child.on('close', (code, signal) => resolve({ exitCode: code ?? (signal ? -1 : 0), output }));
  });
}

/** Runs a setup step and throws with its output when it fails, so a missing toolchain fails the suite loudly. */
export async function runSetupStep(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const result = await runProcess(command, args, options);
  if (result.exitCode !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.exitCode}):\n${result.output}`);
  }
  return result.output;
}
