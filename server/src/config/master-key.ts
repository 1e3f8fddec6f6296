import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type MasterKey = { key: Buffer; source: 'environment' | 'file' | 'generated'; filePath?: string };

export type MasterKeyOptions = { masterKeyHex: string | undefined; dataDir: string };

/**
 * The master key that seals vendor credentials: `MASTER_KEY` when set; otherwise `DATA_DIR/master.key`, generated
 * (mode 0600) on first start. Losing that file makes stored vendor credentials unreadable, so start-up warns.
 */
export function loadMasterKey(options: MasterKeyOptions): MasterKey {
  const existing = readMasterKey(options);
  if (existing) return existing;
  mkdirSync(options.dataDir, { recursive: true });
  const filePath = path.join(options.dataDir, 'master.key');
  const key = randomBytes(32);
  try {
    writeFileSync(filePath, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadMasterKey(options);
    throw error;
  }
  return { key, source: 'generated', filePath };
}

/** The master key from `MASTER_KEY` or `DATA_DIR/master.key`, without generating one; undefined when neither has it. */
export function readMasterKey(options: MasterKeyOptions): MasterKey | undefined {
  if (options.masterKeyHex) return { key: Buffer.from(options.masterKeyHex, 'hex'), source: 'environment' };
  const filePath = path.join(options.dataDir, 'master.key');
  try {
    const text = readFileSync(filePath, 'utf8').trim();
    if (/^[0-9a-f]{64}$/i.test(text)) return { key: Buffer.from(text, 'hex'), source: 'file', filePath };
    throw new Error(`${filePath} does not hold 64 hex characters`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return undefined;
}
