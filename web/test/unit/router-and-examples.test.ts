import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCodeExample, codeLanguages, exampleIds, keyPlaceholder } from '../../src/features/docs/code-examples.ts';
import { matchRoute } from '../../src/router/match-route.ts';

test('matches page paths, ignoring a trailing slash', () => {
  assert.equal(matchRoute('/'), 'home');
  assert.equal(matchRoute('/models'), 'models');
  assert.equal(matchRoute('/models/'), 'models');
  assert.equal(matchRoute('/docs'), 'docs');
  assert.equal(matchRoute('/sign-in'), 'signIn');
  assert.equal(matchRoute('/nope'), 'notFound');
});

test('every example in every language uses the base address, the key placeholder and the model ids', () => {
  const params = { baseUrl: 'https://gw.example/v1', textModel: 'text-model-x', imageModel: 'image-model-y' };
  for (const language of codeLanguages) {
    for (const example of exampleIds) {
      const code = buildCodeExample({ ...params, language, example });
      assert.ok(code.includes(params.baseUrl), `${language}/${example} has the base address`);
      assert.ok(code.includes(keyPlaceholder), `${language}/${example} has the key placeholder`);
      const modelId = example === 'images' ? params.imageModel : params.textModel;
      assert.ok(code.includes(modelId), `${language}/${example} has the model id`);
    }
    const webSearch = buildCodeExample({ ...params, language, example: 'web-search' });
    assert.match(webSearch, /"?type"?: "web_search"/);
    assert.match(webSearch, /responses/);
  }
});
