import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { deriveAffinityKey } from './derive-affinity-key.ts';

const opening: ChatRequest['messages'] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Plan a trip.' },
];
const key = (request: Partial<ChatRequest>, userId = 'usr_a') =>
  deriveAffinityKey({ userId, request: { model: 'm', messages: opening, ...request } });

describe('conversation affinity key', () => {
  it('stays the same as a conversation grows', () => {
    const grown = [
      ...opening,
      { role: 'assistant' as const, content: 'Where to?' },
      { role: 'user' as const, content: 'Rome.' },
    ];
    assert.equal(key({ messages: grown }), key({}));
  });

  it('differs between conversations and between accounts', () => {
    assert.notEqual(key({ messages: [{ role: 'user', content: 'Another topic.' }] }), key({}));
    assert.notEqual(key({}, 'usr_b'), key({}));
  });

  it('follows prompt_cache_key, then metadata.session_id, then user, over the messages', () => {
    const withUser = key({ user: 'end-user-1' });
    assert.equal(withUser, key({ user: 'end-user-1', messages: [{ role: 'user', content: 'x' }] }));
    assert.notEqual(key({ user: 'end-user-1', metadata: { session_id: 's1' } }), withUser);
    const cacheKeyed = { prompt_cache_key: 'pck' } as Partial<ChatRequest>;
    assert.equal(key({ ...cacheKeyed, user: 'u1' }), key({ ...cacheKeyed, user: 'u2' }));
  });

  it('never contains the conversation text', () => {
    assert.ok(!key({}).includes('trip'));
  });
});
