import { z } from 'zod';
import { countTextTokens } from '../shared/count-input-tokens.ts';
import { describeSchemaIssue } from '../shared/describe-schema-issue.ts';
import { findFaultDirectives, mergeFaults } from '../shared/fault-spec.ts';
import { generateWordTokens } from '../shared/generate-words.ts';
import { createRandom, hashText } from '../shared/random.ts';
import { readJsonBody } from '../shared/read-json-body.ts';
import { dropConnection, sendError, sendJson } from '../shared/send-response.ts';
import { createFaultError, createSimError, type SimError } from '../shared/sim-error.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import { renderSampleImage } from '../images/render-sample-image.ts';
import { sendImage } from '../images/send-image.ts';
import { renderDialectError } from '../openai-compatible/render-dialect-error.ts';
import { openAiQuirks } from './openai-quirks.ts';

const imageRequestSchema = z.looseObject({
  prompt: z.string().min(1),
  model: z.string().optional(),
  n: z.number().int().min(1).max(10).nullable().optional(),
  size: z.string().nullable().optional(),
  quality: z.string().nullable().optional(),
  response_format: z.enum(['url', 'b64_json']).nullable().optional(),
  output_format: z.enum(['png', 'jpeg', 'webp']).nullable().optional(),
});

// The sizes each model family draws (the first is its default) and how many images one request may ask for.
const gptImageSizes = ['1024x1024', '1536x1024', '1024x1536'];
const modelLimits = [
  { pattern: /^gpt-image/, sizes: gptImageSizes, maximumCount: 10 },
  { pattern: /^dall-e-3/, sizes: ['1024x1024', '1792x1024', '1024x1792'], maximumCount: 1 },
  { pattern: /^dall-e-2/, sizes: ['1024x1024', '256x256', '512x512'], maximumCount: 10 },
] as const;
// Output tokens of a square GPT image by quality (OpenAI's published image token table).
const imageOutputTokens: Readonly<Record<string, number>> = { low: 272, medium: 1056, high: 4160, auto: 4160 };

/**
 * `POST /v1/images/generations` (wire-formats §4.2): GPT image models answer base64 with token usage; DALL·E models
 * answer a URL (or base64) with a revised prompt made of generated words, never the prompt itself.
 */
export async function handleImageGenerations(exchange: SimulatorExchange): Promise<void> {
  const reject = (error: SimError) =>
    sendError(exchange, renderDialectError(error, exchange, openAiQuirks), exchange.pathFaults);
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) return reject(createSimError(400, 'We could not parse the JSON body of your request.'));
  const result = imageRequestSchema.safeParse(body.value);
  if (!result.success) {
    const issue = describeSchemaIssue(result.error, 'brackets');
    return reject(
      createSimError(
        400,
        issue.isMissing
          ? `Missing required parameter: '${issue.path}'.`
          : `Invalid value for '${issue.path}': ${issue.detail}.`,
        {
          param: issue.path,
          code: issue.isMissing ? 'missing_required_parameter' : 'invalid_value',
        },
      ),
    );
  }
  const request = result.data;
  const faults = mergeFaults(findFaultDirectives(request.prompt), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    return sendError(
      exchange,
      renderDialectError(createFaultError(faults.status, faults.retryAfterSeconds), exchange, openAiQuirks),
      faults,
    );
  }
  const model = request.model ?? 'dall-e-2';
  const count = request.n ?? 1;
  const limits = modelLimits.find((limit) => limit.pattern.test(model)) ?? modelLimits[2];
  const isAutoSize = !request.size || (request.size === 'auto' && model.startsWith('gpt-image'));
  const size = isAutoSize ? limits.sizes[0] : (request.size ?? '');
  if (!(limits.sizes as readonly string[]).includes(size)) {
    const supported = limits.sizes.map((value) => `'${value}'`).join(', ');
    return reject(
      createSimError(400, `Invalid value: '${size}'. Supported values are: ${supported}.`, {
        param: 'size',
        code: 'invalid_value',
      }),
    );
  }
  if (count > limits.maximumCount) {
    return reject(
      createSimError(400, `Invalid 'n': integer above maximum value. Expected a value <= ${limits.maximumCount}.`, {
        param: 'n',
        code: 'integer_above_max_value',
      }),
    );
  }
  if (faults.isRefusal) {
    return reject(
      createSimError(
        400,
        'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
        { code: model.startsWith('gpt-image') ? 'moderation_blocked' : 'content_policy_violation' },
      ),
    );
  }
  const [width = 1024, height = 1024] = size.split('x').map(Number);
  const imageSeed = hashText(`openai\u0000${model}\u0000${request.prompt}`);
  // GPT image models honour `output_format` (WebP is answered as PNG); DALL·E always draws PNG.
  const format = model.startsWith('gpt-image') && request.output_format === 'jpeg' ? 'jpeg' : 'png';
  const render = (index: number) => renderSampleImage({ seed: `${imageSeed}\u0000${index}`, width, height, format });
  const random = createRandom(hashText(`${model}\u0000${request.prompt}`));
  const created = exchange.state.nowUnixSeconds();
  const headers = openAiQuirks.requestIdHeaders(exchange.requestId);
  if (model.startsWith('gpt-image')) {
    const quality = request.quality ?? 'auto';
    const inputTokens = countTextTokens(request.prompt);
    const outputTokens = (imageOutputTokens[quality] ?? 4160) * count;
    const body = {
      created,
      data: Array.from({ length: count }, (_, index) => ({ b64_json: render(index).toString('base64') })),
      background: 'opaque',
      output_format: format,
      size,
      quality: quality === 'auto' ? 'high' : quality,
      usage: {
        total_tokens: inputTokens + outputTokens,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        input_tokens_details: { text_tokens: inputTokens, image_tokens: 0 },
      },
    };
    return sendJson(exchange, { status: 200, headers, body, faults });
  }
  const host = exchange.request.headers.host ?? '127.0.0.1';
  const data = Array.from({ length: count }, (_, index) => {
    const revisedPrompt = generateWordTokens(random, 12).join('');
    return request.response_format === 'b64_json'
      ? { b64_json: render(index).toString('base64'), revised_prompt: revisedPrompt }
      : { url: `http://${host}/openai/v1/_files/${imageSeed}-${index}-${size}.png`, revised_prompt: revisedPrompt };
  });
  await sendJson(exchange, { status: 200, headers, body: { created, data }, faults });
}

/** Serves the image behind a DALL·E URL answer (`<seed>-<index>-<W>x<H>.png`), so downloads get the real PNG. */
export async function handleImageFile(exchange: SimulatorExchange): Promise<void> {
  const name = /\/_files\/([0-9a-f]+)-(\d+)-(\d+)x(\d+)\.png$/.exec(exchange.path);
  if (!name) {
    exchange.request.resume();
    exchange.response.writeHead(404, { 'content-type': 'text/plain' });
    exchange.response.end('Not Found');
    return;
  }
  const [, seed, index, width, height] = name;
  const bytes = renderSampleImage({ seed: `${seed}\u0000${index}`, width: Number(width), height: Number(height) });
  sendImage(exchange, { bytes, mimeType: 'image/png' });
}
