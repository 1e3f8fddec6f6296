import { z } from 'zod';
import { describeSchemaIssue } from '../../shared/describe-schema-issue.ts';
import { readJsonBody } from '../../shared/read-json-body.ts';
import { sendError } from '../../shared/send-response.ts';
import { createSimError, type SimError } from '../../shared/sim-error.ts';
import type { SimulatorExchange } from '../../shared/simulator-exchange.ts';
import type { DialectRoute } from '../create-dialect-simulator.ts';
import { handleChatCompletions } from '../handle-chat-completions.ts';
import { renderDialectError } from '../render-dialect-error.ts';
import { mistralQuirks } from './mistral-quirks.ts';

/** Mistral's FIM request; like its other endpoints it refuses fields it does not know. */
const fimRequestSchema = z.strictObject({
  model: z.string().min(1),
  prompt: z.string(),
  suffix: z.string().nullable().optional(),
  max_tokens: z.number().int().min(0).nullable().optional(),
  min_tokens: z.number().int().min(0).nullable().optional(),
  temperature: z.number().min(0).max(1.5).nullable().optional(),
  top_p: z.number().min(0).max(1).optional(),
  stream: z.boolean().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  random_seed: z.number().int().min(0).nullable().optional(),
});

/**
 * `POST /v1/fim/completions`: Mistral's fill-in-the-middle for Codestral models, answered as a chat completion (whole
 * or as chat chunks) by the chat simulator over the text around the cursor, so the input tokens count prompt and
 * suffix, as Mistral's do. Another model → 400, as on Mistral.
 * @see https://docs.mistral.ai/api/#tag/fim/operation/fim_completion_v1_fim_completions_post
 */
export const mistralFimRoute: DialectRoute = {
  method: 'POST',
  path: '/fim/completions',
  handle: async (exchange: SimulatorExchange) => {
    const reject = (error: SimError) =>
      sendError(exchange, renderDialectError(error, exchange, mistralQuirks), exchange.pathFaults);
    const body = await readJsonBody(exchange.request);
    if (!body.isValid) return reject(createSimError(400, 'Invalid JSON body.'));
    const parsed = fimRequestSchema.safeParse(body.value);
    if (!parsed.success) {
      const issue = describeSchemaIssue(parsed.error, 'brackets');
      return reject(createSimError(422, `${issue.path}: ${issue.detail}`, { param: issue.path }));
    }
    const request = parsed.data;
    if (!request.model.startsWith('codestral')) {
      return reject(
        createSimError(400, `Model ${request.model} does not support FIM completions.`, { param: 'model' }),
      );
    }
    const chatBody: Record<string, unknown> = {
      model: request.model,
      messages: [{ role: 'user', content: `${request.prompt}${request.suffix ?? ''}` }],
    };
    for (const field of ['max_tokens', 'temperature', 'top_p', 'stream', 'stop'] as const) {
      if (request[field] !== undefined && request[field] !== null) chatBody[field] = request[field];
    }
    // Mistral ends every stream with a chunk that carries the usage; its FIM API has no stream_options.
    if (request.stream === true) chatBody['stream_options'] = { include_usage: true };
    return handleChatCompletions(exchange, mistralQuirks, { body: chatBody });
  },
};
