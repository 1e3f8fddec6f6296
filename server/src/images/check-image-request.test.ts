import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import { checkImageRequest } from './check-image-request.ts';
import { findImageProfile } from './image-profiles.ts';
import { imageRequestSchema } from './image-request.ts';

function check(body: Record<string, unknown>) {
  const request = parseWireRequest(imageRequestSchema, { prompt: 'a fox', ...body });
  const profile = findImageProfile(request.model);
  assert.ok(profile, `${request.model} has a profile`);
  return checkImageRequest(request, profile);
}

function refusal(body: Record<string, unknown>): InvalidRequestError {
  try {
    check(body);
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError, String(error));
    return error;
  }
  return assert.fail('the request should be refused');
}

describe('checkImageRequest', () => {
  it('fills in each model’s defaults: one image, its first size, base64 unless the vendor defaults to URLs', () => {
    const gpt = check({ model: 'gpt-image-1' });
    assert.deepEqual(
      [gpt.count, gpt.size, gpt.width, gpt.height, gpt.responseFormat],
      [1, '1024x1024', 1024, 1024, 'b64_json'],
    );
    assert.equal(check({ model: 'dall-e-3' }).responseFormat, 'url');
    assert.equal(check({ model: 'flux-pro-1.1' }).responseFormat, 'b64_json');
    assert.equal(check({ model: 'gpt-image-1', size: 'auto' }).width, undefined);
    assert.equal(check({ model: 'imagen-4.0-generate-001', quality: 'auto' }).quality, undefined);
  });

  it('accepts any FLUX size on its 32-pixel grid and nothing off it', () => {
    assert.equal(check({ model: 'flux-pro-1.1', size: '1440x256' }).width, 1440);
    assert.equal(refusal({ model: 'flux-pro-1.1', size: '1000x1000' }).param, 'size');
    assert.equal(refusal({ model: 'flux-pro-1.1', size: '2048x1024' }).param, 'size');
    assert.equal(refusal({ model: 'flux-pro-1.1', size: 'auto' }).param, 'size');
  });

  it('refuses what the model cannot do, naming the field', () => {
    assert.equal(refusal({ model: 'dall-e-3', size: '1536x1024' }).param, 'size');
    assert.equal(refusal({ model: 'gemini-2.5-flash-image', size: 'auto' }).param, 'size');
    assert.equal(refusal({ model: 'dall-e-3', n: 2 }).param, 'n');
    assert.equal(refusal({ model: 'gpt-image-1', n: 11 }).param, 'n');
    assert.equal(refusal({ model: 'gpt-image-1', n: 0 }).param, 'n');
    assert.equal(refusal({ model: 'gpt-image-1', quality: 'hd' }).param, 'quality');
    assert.equal(refusal({ model: 'gemini-2.5-flash-image', output_format: 'jpeg' }).param, 'output_format');
    assert.equal(refusal({ model: 'imagen-4.0-generate-001', response_format: 'url' }).param, 'response_format');
    const background = refusal({ model: 'flux-pro-1.1', background: 'transparent' });
    assert.deepEqual([background.param, background.code], ['background', 'unsupported_parameter']);
  });

  it('refuses a transparent background in JPEG, as OpenAI does, and takes it in PNG or WebP', () => {
    const jpeg = refusal({ model: 'gpt-image-1', background: 'transparent', output_format: 'jpeg' });
    assert.deepEqual([jpeg.param, jpeg.code], ['background', 'invalid_value']);
    assert.equal(check({ model: 'gpt-image-1', background: 'transparent' }).background, 'transparent');
    assert.equal(
      check({ model: 'gpt-image-1', background: 'transparent', output_format: 'webp' }).outputFormat,
      'webp',
    );
    assert.equal(check({ model: 'gpt-image-1', background: 'opaque', output_format: 'jpeg' }).outputFormat, 'jpeg');
  });

  it('refuses an empty prompt and fields the gateway does not relay at parse time', () => {
    assert.throws(() => check({ model: 'gpt-image-1', prompt: ' \n ' }), { param: 'prompt' });
    assert.throws(() => parseWireRequest(imageRequestSchema, { model: 'gpt-image-1' }), {
      param: 'prompt',
      code: 'missing_required_parameter',
    });
  });

  it('names an unknown field in `param` (regression, issue 9)', () => {
    assert.throws(() => check({ model: 'gpt-image-1', seed: 7 }), {
      param: 'seed',
      code: 'unknown_parameter',
      message: "Unknown parameter: 'seed'.",
    });
  });

  it('refuses a streamed answer, naming the field, and accepts stream: false', () => {
    assert.throws(() => check({ model: 'gpt-image-1', stream: true }), {
      param: 'stream',
      code: 'unsupported_parameter',
    });
    assert.throws(() => check({ model: 'gpt-image-1', partial_images: 2 }), { param: 'partial_images' });
    assert.equal(check({ model: 'gpt-image-1', stream: false, partial_images: 0 }).count, 1);
  });

  it('refuses a prompt longer than the vendor takes, before any credit is held', () => {
    assert.equal(check({ model: 'dall-e-3', prompt: 'a'.repeat(4000) }).prompt.length, 4000);
    const tooLong = refusal({ model: 'dall-e-3', prompt: 'a'.repeat(4001) });
    assert.deepEqual([tooLong.param, tooLong.code], ['prompt', 'string_above_max_length']);
    assert.equal(refusal({ model: 'dall-e-2', prompt: 'a'.repeat(1001) }).param, 'prompt');
    assert.equal(refusal({ model: 'gpt-image-1', prompt: 'a'.repeat(32_001) }).param, 'prompt');
  });
});
