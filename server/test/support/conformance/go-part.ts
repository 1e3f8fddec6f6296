import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { runProcess, runSetupStep, type ProcessResult } from './run-process.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const goFolder = path.join(repositoryRoot, 'conformance/go');

/** `go` from the PATH, else the standard install location (the machines ship Go there without a PATH entry). */
function goCommand(): string {
  const standardInstall = '/usr/local/go/bin/go';
  const onPath = (process.env.PATH ?? '').split(path.delimiter).some((folder) => existsSync(path.join(folder, 'go')));
  return onPath || !existsSync(standardInstall) ? 'go' : standardInstall;
}

/**
 * Compiles `conformance/go` once into a test binary under `node_modules/.cache/` (modules come from the Go module
 * proxy as pinned by go.sum; Go's build cache makes later builds quick). Throws with the compiler's output on failure.
 */
export async function buildGoPart(): Promise<string> {
  const outputFolder = path.join(repositoryRoot, 'node_modules/.cache/conformance/go');
  mkdirSync(outputFolder, { recursive: true });
  const binary = path.join(outputFolder, 'conformance.test');
  await runSetupStep(goCommand(), ['test', '-c', '-mod=readonly', '-o', binary, '.'], { cwd: goFolder });
  return binary;
}

export type GoRun = ProcessResult & { scenariosPassed: number; passed: boolean };

/** Runs the compiled tests verbosely and counts the passed leaf tests (`TestModels/<model>/<scenario>`, `TestErrors/<case>`). */
export async function runGoPart(binary: string, environment: Record<string, string>): Promise<GoRun> {
  const result = await runProcess(binary, ['-test.v', '-test.count=1'], { cwd: goFolder, env: environment });
  const scenariosPassed = [...result.output.matchAll(/^\s*--- PASS: (TestModels\/[^/\s]+|TestErrors)\/\S+/gm)].length;
  const passed = result.exitCode === 0 && /^PASS$/m.test(result.output) && !/--- FAIL/.test(result.output);
  return { ...result, scenariosPassed, passed };
}
