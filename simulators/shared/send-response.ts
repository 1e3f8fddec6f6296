import type { FaultSpec } from './fault-spec.ts';
import type { SimulatorExchange } from './simulator-exchange.ts';
import type { RenderedError } from './sim-error.ts';
import { wait, waitUntilAborted } from './wait.ts';

/** One server-sent event: a `data:` line (with an optional `event:` name) or a `:` comment line. */
export type SseEvent = { kind: 'data'; name: string | undefined; data: string } | { kind: 'comment'; text: string };

export function dataEvent(payload: unknown, name?: string): SseEvent {
  return { kind: 'data', name, data: JSON.stringify(payload) };
}

export const doneEvent: SseEvent = { kind: 'data', name: undefined, data: '[DONE]' };

export function commentEvent(text: string): SseEvent {
  return { kind: 'comment', text };
}

export function dropConnection(exchange: SimulatorExchange): void {
  exchange.isDroppedOnPurpose = true;
  exchange.request.socket.destroy();
}

/** A JSON body, honouring the first-byte delay and the stall, reset and invalid-JSON faults. */
export async function sendJson(
  exchange: SimulatorExchange,
  input: { status: number; headers: Record<string, string>; body: unknown; faults: FaultSpec },
): Promise<void> {
  const { response } = exchange;
  const { faults } = input;
  await waitForFirstByte(exchange, faults);
  if (exchange.signal.aborted) return;
  if (faults.isReset) return dropConnection(exchange);
  const text = JSON.stringify(input.body);
  response.writeHead(input.status, { ...input.headers, 'content-type': 'application/json' });
  if (faults.stallAfterEvents !== undefined) {
    response.flushHeaders();
    return waitUntilAborted(exchange.signal);
  }
  if (faults.resetAfterEvents !== undefined) {
    response.write(text.slice(0, Math.floor(text.length / 2)));
    return dropConnection(exchange);
  }
  response.end(faults.hasInvalidJson ? `${text.slice(0, Math.floor(text.length / 2))}` : text);
}

export async function sendError(
  exchange: SimulatorExchange,
  rendered: RenderedError,
  faults: FaultSpec,
): Promise<void> {
  await sendJson(exchange, {
    status: rendered.status,
    headers: rendered.headers,
    body: rendered.body,
    faults: { ...faults, hasInvalidJson: false, stallAfterEvents: undefined, resetAfterEvents: undefined },
  });
}

/**
 * A server-sent event stream. Each data event counts as one chunk for `stall-after`/`reset-after`; comment lines do
 * not. `mid-stream-error` replaces the second half of the stream with the vendor's error events; `invalid-json`
 * breaks the second data event's JSON and carries on.
 */
export async function sendSse(
  exchange: SimulatorExchange,
  input: {
    headers: Record<string, string>;
    events: readonly SseEvent[];
    faults: FaultSpec;
    /** The vendor's mid-stream error, given how many data events were already sent. */
    midStreamErrorEvents: (sentEventCount: number) => readonly SseEvent[];
  },
): Promise<void> {
  const { response, signal, state } = exchange;
  const { faults } = input;
  await waitForFirstByte(exchange, faults);
  if (signal.aborted) return;
  if (faults.isReset) return dropConnection(exchange);
  response.writeHead(200, {
    ...input.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  response.flushHeaders();
  state.stats.openStreams += 1;
  response.once('close', () => {
    state.stats.openStreams -= 1;
    if (response.writableFinished) state.stats.completedStreams += 1;
    else if (!exchange.isDroppedOnPurpose) state.stats.abortedStreams += 1;
  });
  const dataEventCount = input.events.filter((event) => event.kind === 'data').length;
  const errorIndex = faults.hasMidStreamError ? Math.max(1, Math.floor(dataEventCount / 2)) : undefined;
  let written = 0;
  for (const event of input.events) {
    if (signal.aborted) return;
    if (event.kind === 'data') {
      if (written === faults.stallAfterEvents) return waitUntilAborted(signal);
      if (written === faults.resetAfterEvents) return dropConnection(exchange);
      if (written === errorIndex) {
        for (const errorEvent of input.midStreamErrorEvents(written))
          await writeText(exchange, formatEvent(errorEvent));
        response.end();
        return;
      }
      const isBroken = faults.hasInvalidJson && written === Math.min(1, dataEventCount - 1);
      if (written > 0) await wait(exchange.timing.chunkDelayMs, signal);
      await writeText(exchange, formatEvent(isBroken ? breakJson(event) : event));
      written += 1;
    } else {
      await writeText(exchange, formatEvent(event));
    }
  }
  if (written === faults.stallAfterEvents) return waitUntilAborted(signal);
  if (written === faults.resetAfterEvents) return dropConnection(exchange);
  if (!signal.aborted) response.end();
}

function formatEvent(event: SseEvent): string {
  if (event.kind === 'comment') return `: ${event.text}\n\n`;
  const nameLine = event.name === undefined ? '' : `event: ${event.name}\n`;
  return `${nameLine}data: ${event.data}\n\n`;
}

function breakJson(event: SseEvent): SseEvent {
  if (event.kind !== 'data') return event;
  return { ...event, data: event.data.slice(0, Math.max(1, Math.floor(event.data.length / 2))) };
}

async function writeText(exchange: SimulatorExchange, text: string): Promise<void> {
  const { response, signal } = exchange;
  if (signal.aborted || response.writableEnded) return;
  if (response.write(text)) return;
  await new Promise<void>((resolve) => {
    const finish = () => {
      response.off('drain', finish);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    response.once('drain', finish);
    signal.addEventListener('abort', finish, { once: true });
  });
}

async function waitForFirstByte(exchange: SimulatorExchange, faults: FaultSpec): Promise<void> {
  await wait(faults.firstByteDelayMs ?? exchange.timing.firstByteDelayMs, exchange.signal);
}
