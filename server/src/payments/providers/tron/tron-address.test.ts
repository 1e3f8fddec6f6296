import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { deriveTronAddress, isTronAddress, parseTronXpub, TronXpubError } from './tron-address.ts';

// The BIP-39 test mnemonic every wallet documents; its TRON addresses at m/44'/195'/0'/0/0..4 are the ones the
// Ian Coleman BIP-39 tool and Ledger's TRON app test script print (TUEZSd… at index 0).
const testMnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const publishedAddresses = [
  'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
  'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK',
  'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx',
  'TRhVWK5XEDkQBDevcdCWW7RW51aRncty4W',
  'TT2X2yyubp7qpAWYYNE5JQWBtoZ7ikQFsY',
];

function accountXpub(): string {
  // What a wallet exports: the public half of the account key m/44'/195'/0'.
  return HDKey.fromMasterSeed(mnemonicToSeedSync(testMnemonic)).derive("m/44'/195'/0'").publicExtendedKey;
}

test('the account xpub of the published test mnemonic derives its published TRON addresses', () => {
  const account = parseTronXpub(accountXpub());
  const derived = publishedAddresses.map((_, index) => deriveTronAddress(account, index));
  assert.deepEqual(derived, publishedAddresses);
  for (const address of derived) assert.equal(isTronAddress(address), true);
});

test('a malformed, truncated or private extended key is refused with a message naming the setting', () => {
  const xpub = accountXpub();
  const master = HDKey.fromMasterSeed(mnemonicToSeedSync(testMnemonic));
  for (const bad of ['', 'not-a-key', xpub.slice(0, -4), `${xpub.slice(0, -1)}x`, master.privateExtendedKey]) {
    assert.throws(
      () => parseTronXpub(bad),
      (error: unknown) => error instanceof TronXpubError && error.message.startsWith('USDT_TRON_XPUB is not'),
    );
  }
});

test('only non-hardened indexes derive, and a look-alike string is not an address', () => {
  const account = parseTronXpub(accountXpub());
  assert.throws(() => deriveTronAddress(account, 2 ** 31), RangeError);
  assert.throws(() => deriveTronAddress(account, -1), RangeError);
  assert.equal(isTronAddress('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdx'), false);
  assert.equal(isTronAddress('1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA'), false);
});
