import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createConversationKey,
  createVault,
  minimumIterations,
  openConversationKey,
  openText,
  sealText,
  unlockVault,
  WrongPassphraseError,
} from '../../src/features/chat/crypto/chat-crypto.ts';
import { base64ToBytes } from '../../src/features/chat/crypto/base64.ts';

const passphrase = 'correct horse battery staple';

test('a vault made with a passphrase unlocks with it, and the keys seal and open conversation text', async () => {
  const vault = await createVault(passphrase);
  assert.equal(vault.stored.kdf, 'PBKDF2-SHA-256');
  assert.ok(vault.stored.iterations >= 600_000 && minimumIterations >= 600_000);
  assert.equal(base64ToBytes(vault.stored.salt).length, 16);
  assert.equal(vault.accountKey.extractable, false, 'the unwrapped account key cannot be exported');

  const accountKey = await unlockVault(passphrase, vault.stored);
  const conversation = await createConversationKey(accountKey, 'conv-1');
  const sealed = await sealText(conversation.key, { conversationId: 'conv-1', field: 'body', text: 'héllo 🌍 secret' });
  assert.ok(!sealed.includes('secret'));
  assert.notEqual(
    sealed,
    await sealText(conversation.key, { conversationId: 'conv-1', field: 'body', text: 'héllo 🌍 secret' }),
    'a fresh nonce every time',
  );

  const unlockedAgain = await unlockVault(passphrase, vault.stored);
  const reopened = await openConversationKey(unlockedAgain, 'conv-1', conversation.wrapped);
  assert.equal(await openText(reopened, { conversationId: 'conv-1', field: 'body', sealed }), 'héllo 🌍 secret');
});

test('a wrong passphrase is a WrongPassphraseError, and ciphertext moved to another place does not open', async () => {
  const vault = await createVault(passphrase);
  await assert.rejects(unlockVault('wrong passphrase!', vault.stored), WrongPassphraseError);

  const conversation = await createConversationKey(vault.accountKey, 'conv-a');
  const title = await sealText(conversation.key, { conversationId: 'conv-a', field: 'title', text: 'My title' });
  await assert.rejects(openText(conversation.key, { conversationId: 'conv-a', field: 'body', sealed: title }));
  await assert.rejects(openText(conversation.key, { conversationId: 'conv-b', field: 'title', sealed: title }));
  const tampered = Buffer.from(base64ToBytes(title));
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
  await assert.rejects(
    openText(conversation.key, { conversationId: 'conv-a', field: 'title', sealed: tampered.toString('base64') }),
  );
});
