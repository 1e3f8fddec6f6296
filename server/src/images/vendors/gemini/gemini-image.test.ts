import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpstreamFailureError, type UpstreamFailure } from '../../../providers/provider-adapter.ts';
import { readJsonFixture } from '../../../providers/test-support/replay-fixture.ts';
import { readImageSize } from '../test-support/read-image-size.ts';
import { parseGeminiImageAnswer } from './parse-gemini-image-answer.ts';

const replay = (name: string) =>
  parseGeminiImageAnswer(readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url)), 1);

function failureOf(name: string): UpstreamFailure {
  try {
    replay(name);
  } catch (error) {
    assert.ok(error instanceof UpstreamFailureError, String(error));
    return error.failure;
  }
  return assert.fail(`${name} should be refused`);
}

describe('Gemini image output: replayed answers', () => {
  it('takes the inlineData image of the candidate', () => {
    const answer = replay('image.json');
    assert.deepEqual(
      answer.images.map((image) => ('b64_json' in image ? readImageSize(image.b64_json) : 'no data')),
      ['png 2x2'],
    );
  });

  it('drops a text part beside the image', () => {
    assert.equal(replay('text-and-image.json').images.length, 1);
  });

  it('turns a blocked prompt into a content-policy refusal naming the block reason', () => {
    const failure = failureOf('prompt-blocked.json');
    assert.deepEqual(
      [failure.kind, failure.param, failure.vendorCode],
      ['request', 'prompt', 'content_policy_violation'],
    );
    assert.match(failure.message, /PROHIBITED_CONTENT/);
  });

  it('turns a safety stop with no image into a content-policy refusal naming the finish reason', () => {
    const failure = failureOf('image-safety-stop.json');
    assert.equal(failure.vendorCode, 'content_policy_violation');
    assert.match(failure.message, /IMAGE_SAFETY/);
  });

  it('refuses an answer that ends normally with text only: the model declined to draw', () => {
    const failure = failureOf('text-only.json');
    assert.deepEqual([failure.kind, failure.vendorCode], ['request', 'no_image_generated']);
  });
});
