import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readConfigOrExit } from '../server/src/main.ts';

/**
 * `npm run build` (and `npm install`, through `prepare`): builds the web app once into the directory the gateway serves
 * (`WEB_DIST_DIR`, else `web/dist`). `npm start` only serves what this built; it runs no build tool.
 */
const repositoryRoot = path.resolve(import.meta.dirname, '..');

/** Vite empties the output directory first: refuse a directory that holds anything but an earlier build. */
function isSafeToEmpty(directory: string): boolean {
  if (!existsSync(directory)) return true;
  return readdirSync(directory).length === 0 || existsSync(path.join(directory, 'index.html'));
}

const config = readConfigOrExit();
if (!isSafeToEmpty(config.webDistDir)) {
  process.stderr.write(
    `build: WEB_DIST_DIR ${config.webDistDir} holds files that are not a web app build; ` +
      'point it at an empty directory or an earlier build\n',
  );
  process.exit(1);
}
process.stdout.write(`building the web app into ${config.webDistDir}\n`);
const child = spawn(
  process.execPath,
  [
    path.join(repositoryRoot, 'node_modules/vite/bin/vite.js'),
    'build',
    '--config',
    path.join(repositoryRoot, 'web/vite.config.ts'),
    '--outDir',
    config.webDistDir,
    '--emptyOutDir',
    '--logLevel',
    'warn',
  ],
  { stdio: 'inherit' },
);
child.once('exit', (code, signal) => {
  if (code !== 0) process.stderr.write(`build: vite exited with ${signal ?? code}\n`);
  process.exit(code ?? 1);
});
