import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { readConfigOrExit, runGateway } from '../server/src/main.ts';

/**
 * `npm start`: builds the web app, then runs the gateway in this same process. npm forwards SIGTERM and SIGINT to
 * its child only, so the server must be that child (the npm script `exec`s this file): a shell or a second node
 * process in between would leave the gateway running, orphaned, without draining.
 */
const repositoryRoot = path.resolve(import.meta.dirname, '..');

/** Runs `vite build` into the directory the gateway serves; resolves with the exit code, or the stopping signal. */
function buildWebApp(outDir: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(
    process.execPath,
    [
      path.join(repositoryRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      path.join(repositoryRoot, 'web/vite.config.ts'),
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { stdio: 'inherit' },
  );
  // A signal during the build stops the build too, rather than leaving it behind.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGTERM', forward);
      process.off('SIGINT', forward);
      resolve({ code, signal });
    });
  });
}

/** Vite empties the output directory first: refuse a directory that holds anything but an earlier build. */
function isSafeToEmpty(directory: string): boolean {
  if (!existsSync(directory)) return true;
  return readdirSync(directory).length === 0 || existsSync(path.join(directory, 'index.html'));
}

const config = readConfigOrExit();
if (!isSafeToEmpty(config.webDistDir)) {
  process.stderr.write(
    `gateway: could not start: WEB_DIST_DIR ${config.webDistDir} holds files that are not a web app build; ` +
      'point it at an empty directory or an earlier build\n',
  );
  process.exit(1);
}
process.stdout.write(`building the web app into ${config.webDistDir}\n`);
const build = await buildWebApp(config.webDistDir);
if (build.signal !== null) process.exit(128 + constants.signals[build.signal]);
if (build.code !== 0) {
  process.stderr.write(`gateway: could not start: building the web app failed (vite exited with ${build.code})\n`);
  process.exit(1);
}
await runGateway(config);
