import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { findInstanceSetting, insertInstanceSettingIfAbsent } from '../db/instance-settings.ts';
import { listRoutes } from '../db/routes.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { StartupError } from '../startup-error.ts';
import { loadMasterKey, readMasterKey, type MasterKey, type MasterKeyOptions } from './master-key.ts';

/** An HMAC of a constant under the key: tells keys apart without revealing anything about the key. */
export function fingerprintMasterKey(key: Buffer): string {
  return `v1:${createHmac('sha256', key).update('model-gateway master key fingerprint').digest('hex')}`;
}

/**
 * The master key, checked against the fingerprint this database keeps (stored by the first process that ran with a
 * key). Every gateway node and the CLI must use the same key: one with another key would seal credentials the others
 * cannot open, so it is refused here with a clear message. When the database has no fingerprint yet, the key is
 * generated only if no credential is sealed yet, and must open the credentials that are.
 */
export async function loadVerifiedMasterKey(
  deps: { db: Database; nowMs: () => number },
  options: MasterKeyOptions,
): Promise<MasterKey> {
  const storedFingerprint = await findInstanceSetting(deps.db, 'master_key_fingerprint');
  if (storedFingerprint !== undefined) {
    const masterKey = readMasterKey(options);
    if (!masterKey) {
      throw new StartupError(
        `no master key: MASTER_KEY is not set and ${options.dataDir}/master.key does not exist, but this database's ` +
          'vendor credentials are sealed with a master key; set MASTER_KEY to that key (or copy master.key from the ' +
          'machine that first ran the gateway against this database)',
      );
    }
    assertSameFingerprint(storedFingerprint, masterKey);
    return masterKey;
  }
  const sealedCredentials = (await listRoutes(deps.db))
    .map((route) => route.credential_ciphertext)
    .filter((sealed) => sealed !== null);
  const masterKey = sealedCredentials.length > 0 ? readMasterKey(options) : loadMasterKey(options);
  if (!masterKey) {
    throw new StartupError(
      `no master key: MASTER_KEY is not set and ${options.dataDir}/master.key does not exist, but the database holds ` +
        `${sealedCredentials.length} sealed vendor credential(s); set MASTER_KEY to the key that sealed them`,
    );
  }
  if (sealedCredentials.length > 0 && !sealedCredentials.some((sealed) => canOpen(masterKey.key, sealed))) {
    throw new StartupError(
      `the master key (${describeSource(masterKey)}) opens none of the ${sealedCredentials.length} vendor ` +
        'credential(s) in the database; set MASTER_KEY to the key that sealed them',
    );
  }
  const fingerprint = await insertInstanceSettingIfAbsent(deps.db, {
    name: 'master_key_fingerprint',
    value: fingerprintMasterKey(masterKey.key),
    nowMs: deps.nowMs(),
  });
  // Another process may have stored its fingerprint first, with another key.
  assertSameFingerprint(fingerprint, masterKey);
  return masterKey;
}

function assertSameFingerprint(storedFingerprint: string, masterKey: MasterKey): void {
  const expected = Buffer.from(storedFingerprint);
  const actual = Buffer.from(fingerprintMasterKey(masterKey.key));
  if (expected.length === actual.length && timingSafeEqual(expected, actual)) return;
  throw new StartupError(
    `the master key (${describeSource(masterKey)}) is not the one this database's vendor credentials are sealed ` +
      'with; set MASTER_KEY to that key on every node and for the CLI (it is in DATA_DIR/master.key of the machine ' +
      'that first ran against this database, unless MASTER_KEY was set there)',
  );
}

function canOpen(key: Buffer, sealed: string): boolean {
  try {
    createSecretBox(key).open(sealed);
    return true;
  } catch {
    return false;
  }
}

function describeSource(masterKey: MasterKey): string {
  if (masterKey.source === 'environment') return 'from MASTER_KEY';
  return `from ${masterKey.filePath ?? 'DATA_DIR/master.key'}`;
}
