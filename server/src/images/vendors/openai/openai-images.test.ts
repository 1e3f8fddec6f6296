import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { getProviderAdapter } from '../../../providers/registry.ts';
import { readErrorFixture, readJsonFixture } from '../../../providers/test-support/replay-fixture.ts';
import { readImageSize } from '../test-support/read-image-size.ts';
import { parseOpenAiImagesAnswer } from './parse-openai-images-answer.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const parseError = (name: string) => getProviderAdapter('openai').parseError(readErrorFixture(fixture(name)));

describe('OpenAI images: replayed answers', () => {
  it('reads a GPT image answer: every image as base64, what was drawn, and the token usage', () => {
    const answer = parseOpenAiImagesAnswer(readJsonFixture(fixture('gpt-image-b64.json')), 'b64_json');
    assert.deepEqual(
      answer.images.map((image) => ('b64_json' in image ? readImageSize(image.b64_json) : 'no data')),
      ['png 2x2', 'png 1x1'],
    );
    assert.deepEqual(answer.details, {
      size: '1024x1024',
      quality: 'high',
      output_format: 'png',
      background: 'opaque',
    });
    assert.deepEqual(answer.usage, {
      input_tokens: 14,
      output_tokens: 8320,
      total_tokens: 8334,
      input_tokens_details: { text_tokens: 14, image_tokens: 0 },
    });
  });

  it('reads a DALL·E 3 answer: the URL and the revised prompt, no usage', () => {
    const answer = parseOpenAiImagesAnswer(readJsonFixture(fixture('dall-e-3-url.json')), 'url');
    const [image] = answer.images;
    assert.ok(image && 'url' in image);
    assert.match(image.url, /^https:\/\/oaidalleapiprodscus\.blob\.core\.windows\.net\//);
    assert.match(image.revised_prompt ?? '', /lighthouse/);
    assert.equal(answer.usage, undefined);
    assert.equal(answer.details, undefined);
  });

  it('treats an answer without the asked form as a broken route answer', () => {
    assert.throws(
      () => parseOpenAiImagesAnswer(readJsonFixture(fixture('dall-e-3-url.json')), 'b64_json'),
      (error: unknown) => error instanceof UpstreamFailureError && error.failure.kind === 'retryable',
    );
  });
});

describe('OpenAI images: replayed errors', () => {
  it('passes a GPT image moderation block to the client as its own fault, with the vendor code', () => {
    const failure = parseError('moderation-blocked-error.json');
    assert.deepEqual([failure.kind, failure.status, failure.vendorCode], ['request', 400, 'moderation_blocked']);
    assert.match(failure.message, /rejected by the safety system/);
  });

  it('passes a DALL·E content-policy refusal to the client, with the vendor code', () => {
    const failure = parseError('content-policy-violation-error.json');
    assert.deepEqual([failure.kind, failure.vendorCode], ['request', 'content_policy_violation']);
    assert.match(failure.message, /safety system/);
  });

  it('names the parameter OpenAI refused', () => {
    const failure = parseError('invalid-size-error.json');
    assert.deepEqual([failure.kind, failure.param], ['request', 'size']);
  });
});
