import { sendJson } from '../shared/send-response.ts';
import type { SimulatorExchange } from '../shared/simulator-exchange.ts';
import { renderSampleImage } from '../images/render-sample-image.ts';
import { readSimulatorOrigin, sendImage } from '../images/send-image.ts';
import type { BflTasks } from './bfl-tasks.ts';

/**
 * `GET /v1/get_result?id=…`: `Pending` for the first polls, then `Ready` with `result.sample`, a URL on the delivery
 * host that needs no key. A moderated task answers `Request Moderated` with its reasons in `details`.
 * @see https://docs.bfl.ai/api_integration/errors (response types)
 */
export async function handleBflResult(exchange: SimulatorExchange, tasks: BflTasks): Promise<void> {
  exchange.request.resume();
  const id = exchange.query.get('id') ?? '';
  const task = tasks.find(id);
  const send = (status: number, body: unknown) =>
    sendJson(exchange, { status, headers: {}, body, faults: exchange.pathFaults });
  if (!task) return send(404, { id, status: 'Task not found', result: null, progress: null, details: null });
  if (task.isModerated) {
    const details = { 'Moderation Reasons': ['Content policy'] };
    return send(200, { id, status: 'Request Moderated', result: null, progress: null, details });
  }
  if (task.pendingPollsLeft > 0) {
    task.pendingPollsLeft -= 1;
    const progress = 1 - (task.pendingPollsLeft + 1) / 3;
    return send(200, { id, status: 'Pending', result: null, progress, details: null });
  }
  const extension = task.outputFormat === 'png' ? 'png' : 'jpg';
  const result = {
    sample: `${readSimulatorOrigin(exchange)}/bfl/results/${id}/sample.${extension}`,
    seed: task.seed,
    start_time: exchange.state.nowUnixSeconds() - 2,
    end_time: exchange.state.nowUnixSeconds(),
    duration: 2,
  };
  return send(200, { id, status: 'Ready', result, progress: null, details: null });
}

/** `GET /results/<id>/sample.<ext>` on the delivery host: the image itself, JPEG (BFL's default) or PNG. */
export async function handleBflSample(exchange: SimulatorExchange, input: { id: string; tasks: BflTasks }) {
  const task = input.tasks.find(input.id);
  if (!task) {
    exchange.request.resume();
    exchange.response.writeHead(404, { 'content-type': 'text/plain' });
    exchange.response.end('Not Found');
    return;
  }
  const format = task.outputFormat;
  const bytes = renderSampleImage({ seed: task.imageSeed, width: task.width, height: task.height, format });
  sendImage(exchange, { bytes, mimeType: `image/${format}` });
}
