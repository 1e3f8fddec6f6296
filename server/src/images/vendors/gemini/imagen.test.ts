import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGeminiError } from '../../../providers/gemini/errors.ts';
import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { readErrorFixture, readJsonFixture } from '../../../providers/test-support/replay-fixture.ts';
import { readImageSize } from '../test-support/read-image-size.ts';
import { parseImagenAnswer } from './parse-imagen-answer.ts';

const fixture = (name: string) => new URL(`./__fixtures__/imagen/${name}`, import.meta.url);
const sizesOf = (name: string, count: number) =>
  parseImagenAnswer(readJsonFixture(fixture(name)), count).images.map((image) =>
    'b64_json' in image ? readImageSize(image.b64_json) : 'no data',
  );

describe('Imagen predict: replayed answers', () => {
  it('takes one image per prediction', () => {
    assert.deepEqual(sizesOf('predictions.json', 2), ['png 2x2', 'png 1x1']);
  });

  it('delivers the images that passed when some were filtered (only those are billed)', () => {
    assert.deepEqual(sizesOf('partly-filtered.json', 2), ['png 2x2']);
  });

  it('turns an answer whose every image was filtered into a refusal with Google’s reason', () => {
    assert.throws(
      () => parseImagenAnswer(readJsonFixture(fixture('all-filtered.json')), 1),
      (error: unknown) =>
        error instanceof UpstreamFailureError &&
        error.failure.kind === 'request' &&
        error.failure.vendorCode === 'content_policy_violation' &&
        /usage guidelines/.test(error.failure.message),
    );
  });

  it('classifies Google’s INVALID_ARGUMENT as the request’s fault, with its message', () => {
    const failure = parseGeminiError(readErrorFixture(fixture('invalid-argument-error.json')));
    assert.equal(failure.kind, 'request');
    assert.match(failure.message, /between 1 and 4/);
  });
});
