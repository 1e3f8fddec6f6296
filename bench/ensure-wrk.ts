import { spawnSync } from 'node:child_process';

/**
 * The throughput figure needs wrk. When it is missing, install it from Debian's packages (as root, or through sudo)
 * the way the test command installs its services; when that cannot be done, the run stops with the reason.
 */
export function ensureWrk(log: (line: string) => void): void {
  if (hasWrk()) return;
  log('wrk is missing: installing it from Debian packages (apt-get install wrk)');
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  for (const args of [
    ['apt-get', 'update', '-qq'],
    ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'wrk'],
  ]) {
    const command = [...asRoot, ...args];
    const result = spawnSync(command[0] ?? 'apt-get', command.slice(1), { stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error(`could not install wrk (${command.join(' ')} failed); install it and rerun`);
  }
  if (!hasWrk()) throw new Error('wrk is still missing after apt-get install wrk');
}

function hasWrk(): boolean {
  return spawnSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' }).status === 0;
}
