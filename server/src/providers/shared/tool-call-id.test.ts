import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attachSignature, deriveToolCallId, splitSignature } from './tool-call-id.ts';

describe('tool-call ids with signatures', () => {
  it('round-trips a base64 signature through a URL-safe id', () => {
    const signature = 'EqUCCqICAdHtim9+/PZx+a/bcA==';
    const id = attachSignature('toolu_01A09q90qw90lq917835lq9', signature);
    assert.match(id, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(splitSignature(id), { id: 'toolu_01A09q90qw90lq917835lq9', signature });
  });

  it('round-trips a signature that is not base64', () => {
    const signature = 'skip thought/validator ✓';
    const id = attachSignature('call_1', signature);
    assert.match(id, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(splitSignature(id), { id: 'call_1', signature });
  });

  it('leaves ids without a signature unchanged', () => {
    assert.equal(attachSignature('call_abc', undefined), 'call_abc');
    assert.deepEqual(splitSignature('call_abc'), { id: 'call_abc', signature: undefined });
    assert.deepEqual(splitSignature('D681PevKs'), { id: 'D681PevKs', signature: undefined });
  });

  it('derives the same id from the same response, a different one otherwise', () => {
    const first = deriveToolCallId(['chatcmpl-1', 0, 0]);
    assert.equal(first, deriveToolCallId(['chatcmpl-1', 0, 0]));
    assert.notEqual(first, deriveToolCallId(['chatcmpl-1', 0, 1]));
    assert.match(first, /^call_[0-9a-f]{24}$/);
  });
});
