import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cryptoIds, timeOrderedId } from './ids.ts';

const uuidV7Hex = /^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/;

test('a random id is the prefix and 32 hex characters', () => {
  assert.match(cryptoIds.newId('req_'), /^req_[0-9a-f]{32}$/);
});

test('a time-ordered id has the same form: the prefix and a version 7 UUID without dashes', () => {
  const before = Date.now();
  const id = cryptoIds.newTimeOrderedId('ltx_');
  const after = Date.now();
  assert.match(id.slice('ltx_'.length), uuidV7Hex);
  const madeAt = Number.parseInt(id.slice(4, 16), 16);
  assert.ok(madeAt >= before && madeAt <= after, `${madeAt} within ${before}..${after}`);
});

test('a time-ordered id starts with its millisecond and keeps the random digits of the UUID it takes', () => {
  const id = timeOrderedId('req_', 0x19ac_0000_0001, '0123abcd-4567-4def-9876-543210fedcba');
  assert.equal(id, 'req_19ac00000001' + '7def9876543210fedcba');
  assert.equal(id.length, 'req_'.length + 32);
  assert.equal(timeOrderedId('', 1, '0123abcd-4567-4def-9876-543210fedcba'), '000000000001' + '7def9876543210fedcba');
});

test('ids of later milliseconds sort after earlier ones as text', () => {
  const uuid = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
  const low = '00000000-0000-4000-8000-000000000000';
  assert.ok(timeOrderedId('x', 1_000, uuid) < timeOrderedId('x', 1_001, low));
  assert.ok(timeOrderedId('x', 0xf_ffff_ffff, uuid) < timeOrderedId('x', 0x10_0000_0000, low));
});

test('ids made in one burst are unique and in time order', () => {
  const ids = Array.from({ length: 20_000 }, () => cryptoIds.newTimeOrderedId('req_'));
  assert.equal(new Set(ids).size, ids.length);
  const times = ids.map((id) => id.slice(4, 16));
  assert.deepEqual(times, [...times].sort());
});

test('a time outside the 48-bit field is refused', () => {
  const uuid = '0123abcd-4567-4def-9876-543210fedcba';
  assert.throws(() => timeOrderedId('x', -1, uuid), RangeError);
  assert.throws(() => timeOrderedId('x', 2 ** 48, uuid), RangeError);
  assert.throws(() => timeOrderedId('x', 1.5, uuid), RangeError);
});
