import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runProcess, runSetupStep, type ProcessResult } from './run-process.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const pythonFolder = path.join(repositoryRoot, 'conformance/python');

/**
 * A virtual environment under `node_modules/.cache/` with the pinned OpenAI SDK for Python (or the requirements of
 * another conformance folder), made once per version of `requirements.txt` (its hash names the folder). Test files running at the same time may each build one: each builds
 * in its own folder and renames it into place, and the first rename wins. Throws, with pip's output, when Python or
 * PyPI cannot be had.
 */
export async function preparePythonEnvironment(folder: string = pythonFolder): Promise<string> {
  const requirements = path.join(folder, 'requirements.txt');
  const hash = createHash('sha256').update(readFileSync(requirements)).digest('hex').slice(0, 12);
  const venv = path.join(repositoryRoot, `node_modules/.cache/conformance/python-${hash}`);
  const python = path.join(venv, 'bin/python');
  if (existsSync(path.join(venv, 'installed'))) return python;
  const building = `${venv}.building-${process.pid}`;
  await runSetupStep('python3', ['-m', 'venv', '--clear', building]);
  await runSetupStep(path.join(building, 'bin/python'), [
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '-q',
    '-r',
    requirements,
  ]);
  writeFileSync(path.join(building, 'installed'), `${new Date().toISOString()}\n`);
  // A folder without the marker can only be left over from an interrupted older layout: never a finished build.
  if (existsSync(venv) && !existsSync(path.join(venv, 'installed'))) rmSync(venv, { recursive: true, force: true });
  try {
    renameSync(building, venv);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(path.join(venv, 'installed'))) throw error;
  }
  return python;
}

export type PythonRun = ProcessResult & { testsRun: number; passed: boolean };

/** Runs `conformance/python/test_openai_sdk.py` (unittest) and reads its closing lines. */
export async function runPythonPart(python: string, environment: Record<string, string>): Promise<PythonRun> {
  const result = await runProcess(python, ['test_openai_sdk.py'], { cwd: pythonFolder, env: environment });
  const testsRun = Number(/^Ran (\d+) tests? in /m.exec(result.output)?.[1] ?? 0);
  return { ...result, testsRun, passed: result.exitCode === 0 && /^OK\b/m.test(result.output) };
}
