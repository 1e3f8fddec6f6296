import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { laneNames, listTestFiles, sortIntoLanes } from './test-lanes.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '..');
const lanes = sortIntoLanes(repositoryRoot);
/** Every test file in the repository, wherever it is: one outside the lanes' folders would never run. */
const everyTestFile = listTestFiles(repositoryRoot, '.')
  .map((file) => path.posix.normalize(file))
  .sort();

describe('test lanes', () => {
  test('every test file of the repository belongs to exactly one lane', () => {
    const laned = laneNames.flatMap((lane) => lanes[lane]);
    assert.equal(new Set(laned).size, laned.length, 'no file is in two lanes');
    assert.deepEqual([...laned].sort(), everyTestFile);
  });

  test('every lane has tests', () => {
    for (const lane of laneNames) assert.ok(lanes[lane].length > 0, `${lane} has tests`);
  });

  test('a unit test neither reads the test services nor drives a browser', () => {
    const thisFile = path.relative(repositoryRoot, import.meta.filename);
    for (const file of lanes.unit.filter((unitFile) => unitFile !== thisFile)) {
      const text = readFileSync(path.join(repositoryRoot, file), 'utf8');
      assert.doesNotMatch(text, /TEST_POSTGRES_URL|TEST_REDIS_URL|playwright-core/, file);
    }
  });

  test('a database test reaches the test PostgreSQL or Redis, and the other lanes are by folder', () => {
    assert.ok(lanes.db.includes('server/src/db/ledger.test.ts'));
    assert.ok(lanes.db.includes('server/src/billing/redis-credit-holds.test.ts'));
    assert.ok(lanes.unit.includes('server/src/lib/money.test.ts'));
    assert.ok(lanes.e2e.every((file) => file.startsWith('server/test/e2e/')));
    assert.ok(lanes.browser.every((file) => file.startsWith('web/test/browser/')));
  });
});
