import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSetupStep } from '../conformance/run-process.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');
const manifestPath = path.join(repositoryRoot, 'conformance/clients/package.json');

/** The installed CLIs: how to start each one (program and leading arguments). */
export type CliClients = {
  claude: { command: string; args: readonly string[] };
  codex: { command: string; args: readonly string[] };
  versions: Readonly<Record<string, string>>;
};

/**
 * Installs the pinned CLIs of `conformance/clients/package.json` into `node_modules/.cache/clients/npm-<hash>` with npm
 * (each ships its native binary as a per-platform optional dependency, so no install script is needed), once per
 * version of that file. Throws with npm's output when the registry cannot be reached: a missing client is an error,
 * never a skip.
 */
export async function installCliClients(): Promise<CliClients> {
  const manifest = readFileSync(manifestPath, 'utf8');
  const versions = (JSON.parse(manifest) as { dependencies: Record<string, string> }).dependencies;
  const hash = createHash('sha256').update(manifest).digest('hex').slice(0, 12);
  const folder = path.join(repositoryRoot, `node_modules/.cache/clients/npm-${hash}`);
  if (!existsSync(path.join(folder, 'installed'))) {
    const building = `${folder}.building-${process.pid}`;
    mkdirSync(building, { recursive: true });
    writeFileSync(path.join(building, 'package.json'), manifest);
    await runSetupStep('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', building]);
    writeFileSync(path.join(building, 'installed'), `${new Date().toISOString()}\n`);
    try {
      renameSync(building, folder);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(path.join(folder, 'installed'))) throw error;
    }
  }
  const modules = path.join(folder, 'node_modules');
  const claude = path.join(modules, `@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`);
  if (!existsSync(claude)) throw new Error(`Claude Code's binary for ${process.platform}-${process.arch} is missing`);
  return {
    claude: { command: claude, args: [] },
    codex: { command: process.execPath, args: [path.join(modules, '@openai/codex/bin/codex.js')] },
    versions,
  };
}
