import { z } from 'zod';
import { countTextTokens } from '../shared/count-input-tokens.ts';
import { describeSchemaIssue } from '../shared/describe-schema-issue.ts';
import { embedText, findEmbeddingProfile } from '../shared/embed-text.ts';
import { readJsonBody } from '../shared/read-json-body.ts';
import { sendError, sendJson } from '../shared/send-response.ts';
import { createSimError, type SimError } from '../shared/sim-error.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import type { DialectQuirks } from './dialect-quirks.ts';
import { renderDialectError } from './render-dialect-error.ts';

const tokenSchema = z.number().int().min(0);
const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()), z.array(tokenSchema), z.array(z.array(tokenSchema))]),
  dimensions: z.number().int().min(1).optional(),
  encoding_format: z.enum(['float', 'base64']).optional(),
});

/**
 * `POST …/embeddings` for the OpenAI-dialect vendors (OpenAI, Mistral, Together, …): one deterministic unit vector per
 * input, of the model's size (or `dimensions` where the model can shorten), usage in `prompt_tokens`. Like OpenAI: an
 * empty input, an input over the model's limit, `dimensions` on a model that cannot shorten and a model that does not
 * embed are 400s.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
export async function handleEmbeddings(exchange: SimulatorExchange, quirks: DialectQuirks): Promise<void> {
  const reject = (error: SimError) =>
    sendError(exchange, renderDialectError(error, exchange, quirks), exchange.pathFaults);
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) return reject(createSimError(400, 'We could not parse the JSON body of your request.'));
  const parsed = embeddingsRequestSchema.safeParse(body.value);
  if (!parsed.success) {
    const issue = describeSchemaIssue(parsed.error, 'brackets');
    return reject(createSimError(400, `Invalid value for '${issue.path}': ${issue.detail}.`, { param: issue.path }));
  }
  const request = parsed.data;
  const profile = findEmbeddingProfile(request.model);
  if (!profile) {
    return reject(
      createSimError(400, `The model \`${request.model}\` does not support embeddings.`, { param: 'model' }),
    );
  }
  if (request.dimensions !== undefined && !profile.canShorten) {
    return reject(createSimError(400, 'This model does not support specifying dimensions.', { param: 'dimensions' }));
  }
  const raw = request.input;
  const inputs: ReadonlyArray<string | readonly number[]> =
    typeof raw === 'string'
      ? [raw]
      : typeof raw[0] === 'number'
        ? [raw as number[]]
        : (raw as Array<string | number[]>);
  const counts = inputs.map((item) => (typeof item === 'string' ? countTextTokens(item) : item.length));
  if (inputs.length === 0 || counts.some((count) => count === 0)) {
    return reject(createSimError(400, "'$.input' is invalid. Please check the API reference.", { param: 'input' }));
  }
  const longest = Math.max(...counts);
  if (longest > profile.maxInputTokens) {
    const message = `This model's maximum context length is ${profile.maxInputTokens} tokens, however you requested ${longest} tokens (${longest} in your prompt; 0 for the completion). Please reduce your prompt; or completion length.`;
    return reject(createSimError(400, message, { param: 'input', code: 'context_length_exceeded' }));
  }
  const dimensions = Math.min(request.dimensions ?? profile.dimensions, profile.dimensions);
  const data = inputs.map((item, index) => {
    const vector = embedText({
      model: request.model,
      text: typeof item === 'string' ? item : item.join(' '),
      dimensions,
    });
    const embedding =
      request.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    return { object: 'embedding', index, embedding };
  });
  const promptTokens = counts.reduce((sum, count) => sum + count, 0);
  return sendJson(exchange, {
    status: 200,
    headers: quirks.requestIdHeaders(exchange.requestId),
    body: {
      object: 'list',
      data,
      model: request.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    },
    faults: exchange.pathFaults,
  });
}
