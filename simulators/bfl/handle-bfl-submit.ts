import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { describeSchemaIssue } from '../shared/describe-schema-issue.ts';
import { findFaultDirectives, mergeFaults } from '../shared/fault-spec.ts';
import { hashText } from '../shared/random.ts';
import { readJsonBody } from '../shared/read-json-body.ts';
import { dropConnection, sendError, sendJson } from '../shared/send-response.ts';
import { createFaultError, createSimError, type SimError } from '../shared/sim-error.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import { readSimulatorOrigin } from '../images/send-image.ts';
import type { BflTasks } from './bfl-tasks.ts';
import { renderBflError } from './render-bfl-error.ts';

const dimension = (fallback: number) =>
  z
    .number()
    .int()
    .min(256)
    .max(1440)
    .refine((value) => value % 32 === 0, 'Input should be a multiple of 32')
    .default(fallback);

/** The text-to-image body of FLUX1.1 [pro] and FLUX.1 [dev] (`width`/`height` models). */
const submitSchema = z.looseObject({
  prompt: z.string().min(1),
  width: dimension(1024),
  height: dimension(768),
  prompt_upsampling: z.boolean().optional(),
  seed: z.number().int().nullable().optional(),
  safety_tolerance: z.number().int().min(0).max(6).optional(),
  output_format: z.enum(['jpeg', 'png']).default('jpeg'),
  webhook_url: z.string().nullable().optional(),
});

/** Polls that answer `Pending` before a task is `Ready`, so clients must really poll. */
const pendingPolls = 2;

/**
 * `POST /v1/<model>`: validates the body, registers a task and answers `{id, polling_url}` at once, like the real
 * asynchronous API. `[sim:refusal]` makes the task end as `Request Moderated`.
 * @see https://docs.bfl.ai/api-reference/tasks/generate-an-image-with-flux-11-[pro]
 */
export async function handleBflSubmit(
  exchange: SimulatorExchange,
  input: { model: string; tasks: BflTasks },
): Promise<void> {
  const reject = (error: SimError) => sendError(exchange, renderBflError(error), exchange.pathFaults);
  const body = await readJsonBody(exchange.request);
  if (!body.isValid) return reject(createSimError(422, 'JSON decode error', { param: 'body', code: 'json_invalid' }));
  const parsed = submitSchema.safeParse(body.value);
  if (!parsed.success) {
    const issue = describeSchemaIssue(parsed.error, 'dots');
    const message = issue.isMissing ? 'Field required' : issue.detail;
    return reject(
      createSimError(422, message, { param: issue.path, code: issue.isMissing ? 'missing' : 'value_error' }),
    );
  }
  const request = parsed.data;
  const faults = mergeFaults(findFaultDirectives(request.prompt), exchange.pathFaults);
  if (faults.isReset) return dropConnection(exchange);
  if (faults.status !== undefined) {
    return sendError(exchange, renderBflError(createFaultError(faults.status, faults.retryAfterSeconds)), faults);
  }
  const id = randomUUID();
  // Like BFL, a task without a seed gets a random one (here from its id), so n tasks of one prompt draw n different
  // pictures, and a given seed draws the same picture again.
  const seed = request.seed ?? Number.parseInt(id.slice(0, 8), 16);
  input.tasks.add({
    id,
    model: input.model,
    width: request.width,
    height: request.height,
    outputFormat: request.output_format,
    seed,
    imageSeed: hashText(`bfl\u0000${input.model}\u0000${request.prompt}\u0000${seed}`),
    pendingPollsLeft: pendingPolls,
    isModerated: faults.isRefusal,
  });
  const pollingUrl = `${readSimulatorOrigin(exchange)}/bfl/v1/get_result?id=${id}`;
  await sendJson(exchange, { status: 200, headers: {}, body: { id, polling_url: pollingUrl }, faults });
}
