import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';
import { bearer, geminiHeaders, postJson } from '../test-support/read-sse.ts';

let simulator: RunningSimulator;
before(async () => {
  simulator = await startSimulator();
});
after(() => simulator.close());

const bflHeaders = { 'x-key': 'bfl-test-key' } as const;

function pngSize(bytes: Buffer): string {
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

const base64Size = (data: unknown) => pngSize(Buffer.from(String(data), 'base64'));

/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(bytes: Buffer): string {
  assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8]);
  const frame = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  assert.ok(frame > 0, 'a baseline frame');
  return `${bytes.readUInt16BE(frame + 7)}x${bytes.readUInt16BE(frame + 5)}`;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

describe('Black Forest Labs simulator', () => {
  const submit = (body: unknown, headers: Record<string, string> = bflHeaders) =>
    postJson(`${simulator.url}/bfl/v1/flux-pro-1.1`, { body, headers });
  const poll = (url: string, headers: Record<string, string> = bflHeaders) => fetch(url, { headers });

  it('serves any FLUX model id, so a model of the family added later works in sandbox mode; other paths are 404', async () => {
    const later = await postJson(`${simulator.url}/bfl/v1/flux-kontext-pro`, {
      body: { prompt: 'a lake', width: 512, height: 512 },
      headers: bflHeaders,
    });
    assert.equal(later.status, 200);
    assert.equal(typeof (await json(later))['polling_url'], 'string');
    const other = await postJson(`${simulator.url}/bfl/v1/sdxl`, { body: { prompt: 'a lake' }, headers: bflHeaders });
    assert.equal(other.status, 404);
  });

  it('answers a task id at once, stays Pending for two polls, then is Ready with a sample of the asked size', async () => {
    const task = await json(await submit({ prompt: 'a lake', width: 512, height: 768, output_format: 'png' }));
    assert.equal(typeof task['id'], 'string');
    const pollingUrl = String(task['polling_url']);
    assert.ok(pollingUrl.startsWith(`${simulator.url}/bfl/v1/get_result?id=`));
    const statuses = [];
    let last: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 3; attempt += 1) {
      last = await json(await poll(pollingUrl));
      statuses.push(last['status']);
    }
    assert.deepEqual(statuses, ['Pending', 'Pending', 'Ready']);
    const sampleUrl = String((last['result'] as Record<string, unknown>)['sample']);
    const sample = await fetch(sampleUrl);
    assert.equal(sample.headers.get('content-type'), 'image/png');
    assert.equal(pngSize(Buffer.from(await sample.arrayBuffer())), '512x768');
  });

  it('delivers a JPEG by default, as BFL does', async () => {
    const task = await json(await submit({ prompt: 'a lake', width: 320, height: 256 }));
    let result: Record<string, unknown> = {};
    while (result['status'] !== 'Ready') result = await json(await poll(String(task['polling_url'])));
    const sample = await fetch(String((result['result'] as Record<string, unknown>)['sample']));
    assert.equal(sample.headers.get('content-type'), 'image/jpeg');
    assert.equal(jpegSize(Buffer.from(await sample.arrayBuffer())), '320x256');
  });

  /** Submits, polls until Ready, and fetches the sample; returns its bytes and the seed the result reports. */
  const draw = async (body: Record<string, unknown>) => {
    const task = await json(await submit(body));
    let result: Record<string, unknown> = {};
    while (result['status'] !== 'Ready') result = await json(await poll(String(task['polling_url'])));
    const details = result['result'] as { sample: string; seed: number };
    return { bytes: Buffer.from(await (await fetch(details.sample)).arrayBuffer()), seed: details.seed };
  };

  it('draws a different picture for each task of one prompt, and the same one again for the same seed', async () => {
    const body = { prompt: 'a lake', width: 256, height: 256, output_format: 'png' };
    const [first, second] = await Promise.all([draw(body), draw(body)]);
    assert.notEqual(first.seed, second.seed, 'each task gets its own random seed');
    assert.notDeepEqual(first.bytes, second.bytes, 'n tasks of one prompt are n different pictures');
    const again = await draw({ ...body, seed: first.seed });
    assert.equal(again.seed, first.seed);
    assert.deepEqual(again.bytes, first.bytes, 'a seed reproduces its picture');
  });

  it('ends a refused prompt as Request Moderated, with the reasons in details', async () => {
    const task = await json(await submit({ prompt: 'forbidden [sim:refusal]' }));
    const result = await json(await poll(String(task['polling_url'])));
    assert.equal(result['status'], 'Request Moderated');
    assert.equal(result['result'], null);
    assert.ok(result['details']);
  });

  it('speaks FastAPI errors: 403 without a key, 422 with the field for a bad size, the status of a fault', async () => {
    const noKey = await submit({ prompt: 'a lake' }, {});
    assert.equal(noKey.status, 403);
    assert.deepEqual(await noKey.json(), { detail: 'Not authenticated' });
    const badSize = await submit({ prompt: 'a lake', width: 1000 });
    assert.equal(badSize.status, 422);
    const detail = (await json(badSize))['detail'] as { loc: string[] }[];
    assert.deepEqual(detail[0]?.loc, ['body', 'width']);
    const fault = await submit({ prompt: 'a lake [sim:status=400]' });
    assert.equal(fault.status, 400);
    assert.equal(typeof (await json(fault))['detail'], 'string');
    const unknown = await poll(`${simulator.url}/bfl/v1/get_result?id=nope`);
    assert.equal((await json(unknown))['status'], 'Task not found');
  });
});

describe('Google image simulators', () => {
  const call = (model: string, method: string, body: unknown) =>
    postJson(`${simulator.url}/gemini/v1beta/models/${model}:${method}`, { body, headers: geminiHeaders });

  it('answers a Gemini image model with an inlineData PNG of the aspect ratio and 1290 output tokens', async () => {
    const response = await call('gemini-2.5-flash-image', 'generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'a banana' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '9:16' } },
    });
    const answer = await json(response);
    const candidates = answer['candidates'] as { content: { parts: { inlineData?: { data: string } }[] } }[];
    const parts = candidates[0]?.content.parts ?? [];
    assert.equal(parts.length, 1, 'no text part when only IMAGE is asked for');
    assert.equal(base64Size(parts[0]?.inlineData?.data), '768x1344');
    assert.equal((answer['usageMetadata'] as Record<string, number>)['candidatesTokenCount'], 1290);
  });

  it('blocks a refused Gemini prompt with promptFeedback and refuses an unknown aspect ratio', async () => {
    const blocked = await json(
      await call('gemini-2.5-flash-image', 'generateContent', {
        contents: [{ parts: [{ text: 'forbidden [sim:refusal]' }] }],
      }),
    );
    assert.equal((blocked['promptFeedback'] as Record<string, string>)['blockReason'], 'PROHIBITED_CONTENT');
    assert.equal(blocked['candidates'], undefined);
    const badRatio = await call('gemini-2.5-flash-image', 'generateContent', {
      contents: [{ parts: [{ text: 'a banana' }] }],
      generationConfig: { imageConfig: { aspectRatio: '7:3' } },
    });
    assert.equal(badRatio.status, 400);
    assert.equal(((await json(badRatio))['error'] as Record<string, string>)['status'], 'INVALID_ARGUMENT');
  });

  it('answers Imagen :predict with sampleCount images (4 by default), filtered ones with a reason', async () => {
    const four = await json(await call('imagen-4.0-generate-001', 'predict', { instances: [{ prompt: 'a robot' }] }));
    const predictions = four['predictions'] as { bytesBase64Encoded: string }[];
    assert.equal(predictions.length, 4);
    assert.equal(base64Size(predictions[0]?.bytesBase64Encoded), '1024x1024');
    const wide = await json(
      await call('imagen-4.0-generate-001', 'predict', {
        instances: [{ prompt: 'a robot' }],
        parameters: { sampleCount: 1, aspectRatio: '16:9' },
      }),
    );
    assert.equal(
      base64Size((wide['predictions'] as { bytesBase64Encoded: string }[])[0]?.bytesBase64Encoded),
      '1408x768',
    );
    const filtered = await json(
      await call('imagen-4.0-generate-001', 'predict', {
        instances: [{ prompt: 'forbidden [sim:refusal]' }],
        parameters: { sampleCount: 2, includeRaiReason: true },
      }),
    );
    const reasons = (filtered['predictions'] as { raiFilteredReason?: string }[]).map((item) => item.raiFilteredReason);
    assert.equal(reasons.length, 2);
    assert.ok(reasons.every((reason) => typeof reason === 'string' && reason.length > 0));
    const silent = await json(
      await call('imagen-4.0-generate-001', 'predict', { instances: [{ prompt: 'forbidden [sim:refusal]' }] }),
    );
    assert.deepEqual(silent, {});
  });
});

describe('OpenAI image simulator', () => {
  const generate = (body: unknown) =>
    postJson(`${simulator.url}/openai/v1/images/generations`, { body, headers: bearer });

  it('draws the requested size and serves DALL·E URLs as PNGs of that size', async () => {
    const gpt = await json(await generate({ model: 'gpt-image-1', prompt: 'a fox', size: '1024x1536', n: 2 }));
    const data = gpt['data'] as { b64_json: string }[];
    assert.deepEqual(
      data.map((datum) => base64Size(datum.b64_json)),
      ['1024x1536', '1024x1536'],
    );
    const jpeg = await json(await generate({ model: 'gpt-image-1', prompt: 'a fox', output_format: 'jpeg' }));
    assert.equal(jpeg['output_format'], 'jpeg');
    const jpegData = (jpeg['data'] as { b64_json: string }[])[0]?.b64_json ?? '';
    assert.equal(jpegSize(Buffer.from(jpegData, 'base64')), '1024x1024');
    const dalle = await json(await generate({ model: 'dall-e-3', prompt: 'a fox', size: '1024x1792' }));
    const url = (dalle['data'] as { url: string }[])[0]?.url ?? '';
    assert.equal(pngSize(Buffer.from(await (await fetch(url)).arrayBuffer())), '1024x1792');
  });

  it('answers output_format webp with a lossless WebP of the size, as GPT image models do', async () => {
    const answer = await json(await generate({ model: 'gpt-image-1', prompt: 'a fox', output_format: 'webp' }));
    assert.equal(answer['output_format'], 'webp');
    const webp = Buffer.from((answer['data'] as { b64_json: string }[])[0]?.b64_json ?? '', 'base64');
    assert.equal(webp.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(webp.subarray(8, 16).toString('latin1'), 'WEBPVP8L');
    const header = webp.readUInt32LE(21);
    assert.deepEqual([(header & 0x3fff) + 1, ((header >>> 14) & 0x3fff) + 1], [1024, 1024]);
  });

  it('draws a transparent background with an alpha channel in PNG or WebP, and refuses it in JPEG', async () => {
    const png = await json(await generate({ model: 'gpt-image-1', prompt: 'a fox', background: 'transparent' }));
    assert.deepEqual([png['background'], png['output_format']], ['transparent', 'png']);
    const pngBytes = Buffer.from((png['data'] as { b64_json: string }[])[0]?.b64_json ?? '', 'base64');
    assert.equal(pngBytes[25], 6, 'PNG colour type 6: RGBA');
    const webp = await json(
      await generate({ model: 'gpt-image-1', prompt: 'a fox', background: 'transparent', output_format: 'webp' }),
    );
    assert.equal(webp['background'], 'transparent');
    const webpBytes = Buffer.from((webp['data'] as { b64_json: string }[])[0]?.b64_json ?? '', 'base64');
    assert.equal((webpBytes.readUInt32LE(21) >>> 28) & 1, 1, 'VP8L alpha_is_used');
    const opaque = await json(await generate({ model: 'gpt-image-1', prompt: 'a fox', output_format: 'jpeg' }));
    assert.equal(opaque['background'], 'opaque');

    const jpeg = await generate({
      model: 'gpt-image-1',
      prompt: 'a fox',
      background: 'transparent',
      output_format: 'jpeg',
    });
    assert.equal(jpeg.status, 400);
    const refusal = (await json(jpeg))['error'] as Record<string, string>;
    assert.deepEqual(
      [refusal['param'], refusal['code'], refusal['type']],
      ['background', 'invalid_value', 'invalid_request_error'],
    );
    assert.match(refusal['message'] ?? '', /'png' or 'webp'/);
    const unknown = await generate({ model: 'gpt-image-1', prompt: 'a fox', background: 'clear' });
    assert.equal(unknown.status, 400);
    assert.equal(((await json(unknown))['error'] as Record<string, string>)['param'], 'background');
  });

  it('refuses a quality the model does not draw and a prompt over its length, naming the field', async () => {
    const errorOf = async (body: unknown) => {
      const response = await generate(body);
      assert.equal(response.status, 400);
      return (await json(response))['error'] as Record<string, string>;
    };
    const hd = await errorOf({ model: 'gpt-image-1', prompt: 'a fox', quality: 'hd' });
    assert.deepEqual([hd['param'], hd['code']], ['quality', 'invalid_value']);
    assert.equal((await errorOf({ model: 'dall-e-3', prompt: 'a fox', quality: 'high' }))['param'], 'quality');
    assert.equal((await errorOf({ model: 'dall-e-2', prompt: 'a fox', quality: 'hd' }))['param'], 'quality');
    const long = await errorOf({ model: 'dall-e-3', prompt: 'a'.repeat(4001) });
    assert.deepEqual([long['param'], long['code']], ['prompt', 'string_above_max_length']);
    assert.equal((await errorOf({ model: 'dall-e-2', prompt: 'a'.repeat(1001) }))['param'], 'prompt');
    const fits = await generate({ model: 'dall-e-3', prompt: 'a'.repeat(4000), quality: 'hd' });
    assert.equal(fits.status, 200);
  });

  it('refuses sizes and counts the model does not offer, and refusals, in the OpenAI error shape', async () => {
    const size = await generate({ model: 'dall-e-3', prompt: 'a fox', size: '1536x1024' });
    assert.equal(size.status, 400);
    assert.equal(((await json(size))['error'] as Record<string, string>)['param'], 'size');
    const count = await generate({ model: 'dall-e-3', prompt: 'a fox', n: 2 });
    assert.equal(((await json(count))['error'] as Record<string, string>)['param'], 'n');
    const refused = await generate({ model: 'dall-e-3', prompt: 'forbidden [sim:refusal]' });
    assert.equal(refused.status, 400);
    assert.equal(((await json(refused))['error'] as Record<string, string>)['code'], 'content_policy_violation');
  });
});
