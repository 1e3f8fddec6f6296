import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../../../simulators/start-simulator.ts';
import { chatProviderIds, providerIds } from './provider-id.ts';
import { providerAdapters } from './registry.ts';
import { vendors } from './vendors.ts';

/** The folders under providers/ that hold a vendor definition (`<id>/<id>-vendor.ts`). */
const vendorFolders = readdirSync(new URL('./', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .filter((entry) => readdirSync(new URL(`./${entry.name}/`, import.meta.url)).includes(`${entry.name}-vendor.ts`))
  .map((entry) => entry.name);

describe('the vendor list', () => {
  let simulator: RunningSimulator;
  before(async () => {
    simulator = await startSimulator();
  });
  after(async () => {
    await simulator.close();
  });

  it('lists every vendor folder exactly once, under the folder name', () => {
    assert.deepEqual([...providerIds].sort(), [...vendorFolders].sort());
  });

  it('registers each chat adapter under its own id, and only for vendors that have one', () => {
    for (const id of chatProviderIds) assert.equal(providerAdapters[id].id, id);
    const withoutChat = providerIds.filter((id) => !(chatProviderIds as readonly string[]).includes(id));
    assert.deepEqual(withoutChat, ['bfl']);
  });

  it('gives every vendor something to serve and distinct credential variables', () => {
    for (const id of providerIds) {
      const vendor = vendors[id];
      assert.ok(vendor.chatAdapter !== undefined || vendor.imageApis.length > 0, `${id} serves nothing`);
    }
    const keys = providerIds.flatMap((id) => vendors[id].credentialKey ?? []);
    assert.equal(new Set(keys).size, keys.length);
    for (const key of keys) assert.match(key, /^[A-Z][A-Z0-9]*_API_KEY$/);
  });

  it('marks as local only servers without a public address', () => {
    for (const id of providerIds.filter((candidate) => vendors[candidate].isLocal)) {
      assert.equal(vendors[id].publicBaseUrl, undefined, id);
      assert.equal(vendors[id].credentialKey, undefined, id);
    }
  });

  it("has a simulator answering under each vendor's simulator path", async () => {
    for (const id of providerIds) {
      const response = await fetch(`${simulator.url}${vendors[id].simulatorPath}/no-such-endpoint`);
      const body = await response.text();
      assert.doesNotMatch(body, /No simulated vendor serves/, `${id}: ${vendors[id].simulatorPath}`);
    }
  });
});
