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
  background: z.enum(['transparent', 'opaque', 'auto']).nullable().optional(),
});

// What each model family takes: sizes (the first is its default), images per request, qualities (`auto` is always
// accepted) and the longest prompt in characters, as OpenAI's API reference lists them.
const modelLimits = [
  {
    pattern: /^gpt-image/,
    sizes: ['1024x1024', '1536x1024', '1024x1536'],
    maximumCount: 10,
    qualities: ['low', 'medium', 'high'],
    maximumPromptChars: 32_000,
  },
  {
    pattern: /^dall-e-3/,
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    maximumCount: 1,
    qualities: ['standard', 'hd'],
    maximumPromptChars: 4000,
  },
  {
    pattern: /^dall-e-2/,
    sizes: ['1024x1024', '256x256', '512x512'],
    maximumCount: 10,
    qualities: ['standard'],
    maximumPromptChars: 1000,
  },
] as const;
// Output tokens of a square GPT image by quality (OpenAI's published image token table).
const imageOutputTokens: Readonly<Record<string, number>> = { low: 272, medium: 1056, high: 4160, auto: 4160 };

type ModelLimits = (typeof modelLimits)[number];
type ImageRequest = z.infer<typeof imageRequestSchema>;

/**
 * `POST /v1/images/generations` (docs/reference/openai.md §Models and images): GPT image models answer base64 with token usage; DALL·E models
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
  const limits = modelLimits.find((limit) => limit.pattern.test(model)) ?? modelLimits[2];
  const isAutoSize = !request.size || (request.size === 'auto' && model.startsWith('gpt-image'));
  const size = isAutoSize ? limits.sizes[0] : (request.size ?? '');
  const refusal = checkLimits(request, { limits, size });
  if (refusal) return reject(refusal);
  if (faults.isRefusal) return reject(createRefusal(model, exchange.requestId));
  const answer = model.startsWith('gpt-image')
    ? answerGptImage(exchange, { request, model, size })
    : answerDallE(exchange, { request, model, size });
  await sendJson(exchange, {
    status: 200,
    headers: openAiQuirks.requestIdHeaders(exchange.requestId),
    body: answer,
    faults,
  });
}

/**
 * OpenAI's safety system refusing the prompt: GPT image models answer `moderation_blocked` with the type
 * `image_generation_user_error` and the request id; DALL·E answers `content_policy_violation`.
 */
function createRefusal(model: string, requestId: string): SimError {
  if (model.startsWith('gpt-image')) {
    return createSimError(
      400,
      `Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID ${requestId}. safety_violations=[violence].`,
      { code: 'moderation_blocked', vendorType: 'image_generation_user_error' },
    );
  }
  return createSimError(
    400,
    'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
    { code: 'content_policy_violation' },
  );
}

/** The model's own limits, in OpenAI's words: size, n, quality and prompt length. */
function checkLimits(request: ImageRequest, input: { limits: ModelLimits; size: string }): SimError | undefined {
  const { limits, size } = input;
  const listValues = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
  if (!(limits.sizes as readonly string[]).includes(size)) {
    return createSimError(400, `Invalid value: '${size}'. Supported values are: ${listValues(limits.sizes)}.`, {
      param: 'size',
      code: 'invalid_value',
    });
  }
  const count = request.n ?? 1;
  if (count > limits.maximumCount) {
    return createSimError(
      400,
      `Invalid 'n': integer above maximum value. Expected a value <= ${limits.maximumCount}.`,
      {
        param: 'n',
        code: 'integer_above_max_value',
      },
    );
  }
  const quality = request.quality ?? 'auto';
  const qualities: readonly string[] = [...limits.qualities, 'auto'];
  if (!qualities.includes(quality)) {
    return createSimError(400, `Invalid value: '${quality}'. Supported values are: ${listValues(qualities)}.`, {
      param: 'quality',
      code: 'invalid_value',
    });
  }
  if (request.background === 'transparent' && request.output_format === 'jpeg') {
    // "If transparent, the output format needs to support transparency, so it should be set to either png (default
    // value) or webp": JPEG has no alpha channel, so OpenAI refuses the pair rather than answer an opaque picture.
    return createSimError(
      400,
      `Invalid value: 'transparent'. A transparent background needs an output_format with transparency: 'png' or 'webp', not 'jpeg'.`,
      { param: 'background', code: 'invalid_value' },
    );
  }
  if (request.prompt.length > limits.maximumPromptChars) {
    return createSimError(
      400,
      `Invalid 'prompt': string too long. Expected a string with maximum length ${limits.maximumPromptChars}, but got a string with length ${request.prompt.length} instead.`,
      { param: 'prompt', code: 'string_above_max_length' },
    );
  }
  return undefined;
}

/**
 * GPT image models: base64 in the asked `output_format` (PNG, JPEG or WebP), what was drawn, and token usage. A
 * transparent background is drawn with an alpha channel; `auto` lets the model choose, and this one draws opaque.
 */
function answerGptImage(exchange: SimulatorExchange, input: { request: ImageRequest; model: string; size: string }) {
  const { request, model, size } = input;
  const count = request.n ?? 1;
  const format = request.output_format ?? 'png';
  const isTransparent = request.background === 'transparent';
  const render = createRenderer({ model, prompt: request.prompt, size, format, isTransparent });
  const quality = request.quality ?? 'auto';
  const inputTokens = countTextTokens(request.prompt);
  const outputTokens = (imageOutputTokens[quality] ?? 4160) * count;
  return {
    created: exchange.state.nowUnixSeconds(),
    data: Array.from({ length: count }, (_, index) => ({ b64_json: render(index).toString('base64') })),
    background: isTransparent ? 'transparent' : 'opaque',
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
}

/** DALL·E: always PNG, a URL on the simulator's file host by default, and a revised prompt. */
function answerDallE(exchange: SimulatorExchange, input: { request: ImageRequest; model: string; size: string }) {
  const { request, model, size } = input;
  const render = createRenderer({ model, prompt: request.prompt, size, format: 'png' });
  const imageSeed = hashText(`openai\u0000${model}\u0000${request.prompt}`);
  const random = createRandom(hashText(`${model}\u0000${request.prompt}`));
  const host = exchange.request.headers.host ?? '127.0.0.1';
  const data = Array.from({ length: request.n ?? 1 }, (_, index) => {
    const revisedPrompt = generateWordTokens(random, 12).join('');
    return request.response_format === 'b64_json'
      ? { b64_json: render(index).toString('base64'), revised_prompt: revisedPrompt }
      : { url: `http://${host}/openai/v1/_files/${imageSeed}-${index}-${size}.png`, revised_prompt: revisedPrompt };
  });
  return { created: exchange.state.nowUnixSeconds(), data };
}

/** Image `index` of a request: its colours come from the model, the prompt's hash and the index. */
function createRenderer(input: {
  model: string;
  prompt: string;
  size: string;
  format: 'png' | 'jpeg' | 'webp';
  isTransparent?: boolean;
}) {
  const [width = 1024, height = 1024] = input.size.split('x').map(Number);
  const imageSeed = hashText(`openai\u0000${input.model}\u0000${input.prompt}`);
  const { format, isTransparent = false } = input;
  return (index: number) =>
    renderSampleImage({ seed: `${imageSeed}\u0000${index}`, width, height, format, isTransparent });
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
