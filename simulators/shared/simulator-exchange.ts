import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultSpec } from './fault-spec.ts';
import type { Random } from './random.ts';
import type { RenderedError, SimError } from './sim-error.ts';
import type { SimulatorState } from './simulator-state.ts';

export type SimulatorTiming = { chunkDelayMs: number; firstByteDelayMs: number };

/** One HTTP request to a vendor simulator, with everything a handler needs to answer it. */
export type SimulatorExchange = {
  request: IncomingMessage;
  response: ServerResponse;
  method: string;
  /** The path after the vendor prefix and any `/_fault/…/` segment, e.g. `/v1/chat/completions`. */
  path: string;
  query: URLSearchParams;
  /** Faults asked for by the `/_fault/<spec>/` prefix of the base URL. */
  pathFaults: FaultSpec;
  /** Aborts when the client disconnects or the simulator closes. */
  signal: AbortSignal;
  timing: SimulatorTiming;
  state: SimulatorState;
  /** Unique per request (unlike the answer's seeded randomness): ids and request ids. */
  ids: Random;
  /** The vendor's request-id header value for this request. */
  requestId: string;
  /** Set by the SSE writer when the simulator itself drops the connection, so it is not counted as a client abort. */
  isDroppedOnPurpose: boolean;
};

/** What each vendor folder provides to the router. */
export type VendorSimulator = {
  createRequestId: (ids: Random) => string;
  renderError: (error: SimError, exchange: SimulatorExchange) => RenderedError;
  handle: (exchange: SimulatorExchange) => Promise<void>;
};
