import { randomUUID } from 'node:crypto';
import { isRejectedKey } from '../shared/read-bearer-key.ts';
import { sendError } from '../shared/send-response.ts';
import { createSimError } from '../shared/sim-error.ts';
import type { VendorSimulator } from '../shared/simulator-exchange.ts';
import { createBflTasks } from './bfl-tasks.ts';
import { handleBflResult, handleBflSample } from './handle-bfl-result.ts';
import { handleBflSubmit } from './handle-bfl-submit.ts';
import { renderBflError } from './render-bfl-error.ts';

/**
 * The FLUX models the simulator serves, all as `width`/`height` text-to-image endpoints: any `flux-…` id, so a model
 * of the family added to the catalogue later (`flux-pro-1.1-ultra`, `flux-kontext-pro`) works in sandbox mode too.
 */
const fluxModelPattern = /^flux-[a-z0-9.-]+$/;
const submitPattern = /^\/v1\/([a-z0-9.-]+)$/;
const samplePattern = /^\/results\/([0-9a-f-]+)\/sample\.(?:png|jpg)$/;

/**
 * Black Forest Labs (FLUX): submit a task with the `x-key` header, poll `polling_url` until `Ready`, then download
 * `result.sample` (a signed delivery URL, no key). README.md lists the behaviour.
 */
export function createBflSimulator(): VendorSimulator {
  const tasks = createBflTasks();
  return {
    createRequestId: () => randomUUID(),
    renderError: (error) => renderBflError(error),
    handle: async (exchange) => {
      const sample = samplePattern.exec(exchange.path);
      if (exchange.method === 'GET' && sample) return handleBflSample(exchange, { id: sample[1] ?? '', tasks });
      const reject = (status: number, message: string) =>
        sendError(exchange, renderBflError(createSimError(status, message)), exchange.pathFaults);
      const key = exchange.request.headers['x-key'];
      if (typeof key !== 'string' || key === '') {
        exchange.request.resume();
        return reject(403, 'Not authenticated');
      }
      if (isRejectedKey(key)) {
        exchange.request.resume();
        return reject(403, 'Invalid API key.');
      }
      if (exchange.method === 'GET' && exchange.path === '/v1/get_result') return handleBflResult(exchange, tasks);
      const submit = submitPattern.exec(exchange.path);
      if (exchange.method === 'POST' && submit && fluxModelPattern.test(submit[1] ?? '')) {
        return handleBflSubmit(exchange, { model: submit[1] ?? '', tasks });
      }
      exchange.request.resume();
      return reject(404, 'Not Found');
    },
  };
}
