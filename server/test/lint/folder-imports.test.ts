import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ESLint } from 'eslint';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');

/** The import boundaries of docs/STYLE.md §3, as `eslint.config.js` enforces them, on a one-line file at `filePath`. */
describe('lint: import boundaries between the parts of server/src', () => {
  let eslint: ESLint;
  before(() => {
    eslint = new ESLint({ cwd: repositoryRoot });
  });

  const boundaryMessages = async (filePath: string, source: string): Promise<string[]> => {
    const [result] = await eslint.lintText(`import { x } from '${source}';\nexport const y = x;\n`, { filePath });
    assert.ok(result, 'a lint result');
    return result.messages
      .filter((message) => message.ruleId === 'architecture/folder-imports')
      .map((message) => message.message);
  };

  test('a domain folder may not import a file at the root of server/src (the composition roots)', async () => {
    for (const target of ['start-gateway.ts', 'app.ts', 'main.ts', 'logger.ts']) {
      const messages = await boundaryMessages('server/src/providers/example.ts', `../${target}`);
      assert.equal(messages.length, 1, `providers/ importing ${target}`);
      assert.match(messages[0] ?? '', new RegExp(`providers/ may not import ${target.replace('.', '\\.')}`));
    }
    const fromPipeline = await boundaryMessages('server/src/pipeline/example.ts', '../app.ts');
    assert.equal(fromPipeline.length, 1);
  });

  test('the CLI and the root files may import root files; config/ may import the start-up error', async () => {
    assert.deepEqual(await boundaryMessages('server/src/cli/example.ts', '../prepare-database.ts'), []);
    assert.deepEqual(await boundaryMessages('server/src/main.ts', './start-gateway.ts'), []);
    assert.deepEqual(await boundaryMessages('server/src/config/example.ts', '../startup-error.ts'), []);
    assert.equal((await boundaryMessages('server/src/db/example.ts', '../startup-error.ts')).length, 1);
  });

  test('responses/ may not import the simulators', async () => {
    const messages = await boundaryMessages(
      'server/src/responses/example.ts',
      '../../../simulators/openai/handle-responses.ts',
    );
    assert.equal(messages.length, 1);
    assert.match(messages[0] ?? '', /responses\/ may not import simulators\//);
  });

  test('only start-gateway.ts (and tests) load the simulators, which sit outside server/src', async () => {
    const fromImages = await boundaryMessages('server/src/images/example.ts', '../../../simulators/start-simulator.ts');
    assert.equal(fromImages.length, 1);
    assert.match(fromImages[0] ?? '', /images\/ may not import simulators\//);
    assert.deepEqual(await boundaryMessages('server/src/start-gateway.ts', '../../simulators/start-simulator.ts'), []);
  });

  test('the simulators import only types from server/', async () => {
    const simulatorMessages = async (line: string): Promise<string[]> => {
      const [result] = await eslint.lintText(`${line}\nexport type Y = X;\n`, {
        filePath: 'simulators/openai/example.ts',
      });
      assert.ok(result, 'a lint result');
      return result.messages
        .filter((message) => message.ruleId === 'simulators/type-only-server-imports')
        .map((message) => message.message);
    };
    const valueImport = await simulatorMessages(`import { X } from '../../server/src/lib/money.ts';`);
    assert.equal(valueImport.length, 1);
    assert.match(valueImport[0] ?? '', /simulators import only types from server\//);
    assert.deepEqual(
      await simulatorMessages(`import type { X } from '../../server/src/providers/provider-id.ts';`),
      [],
    );
    assert.deepEqual(await simulatorMessages(`import type { X } from '../shared/random.ts';`), []);
  });

  test('allowed folder imports pass: the pipeline imports providers, images import routing', async () => {
    assert.deepEqual(await boundaryMessages('server/src/pipeline/example.ts', '../providers/registry.ts'), []);
    assert.deepEqual(await boundaryMessages('server/src/images/example.ts', '../routing/try-routes.ts'), []);
  });

  test('http/ may take types from db/ but run no query itself', async () => {
    const [result] = await eslint.lintText(
      "import type { Database } from '../db/database.ts';\nexport type Deps = { db: Database };\n",
      { filePath: 'server/src/http/example.ts' },
    );
    assert.deepEqual(
      result?.messages.filter((message) => message.ruleId === 'architecture/folder-imports'),
      [],
    );
    const messages = await boundaryMessages('server/src/http/example.ts', '../db/database.ts');
    assert.equal(messages.length, 1);
    assert.match(messages[0] ?? '', /http\/ may not import anything but types from db\//);
  });

  test('the cycles are broken: db/ may not import config/, subscriptions/ may not import operator/', async () => {
    assert.equal((await boundaryMessages('server/src/db/example.ts', '../config/config.ts')).length, 1);
    assert.equal(
      (await boundaryMessages('server/src/subscriptions/example.ts', '../operator/adjust-balance.ts')).length,
      1,
    );
    assert.equal((await boundaryMessages('server/src/config/example.ts', '../routing/try-routes.ts')).length, 1);
  });

  test('a folder without an allow-list may import no other folder', async () => {
    const messages = await boundaryMessages('server/src/new-part/example.ts', '../lib/money.ts');
    assert.equal(messages.length, 1);
    assert.match(messages[0] ?? '', /new-part\/ has no allow-list/);
  });
});
