import type { ResponseObject } from './response-object.ts';
import type { SequencedEvent } from './response-stream-event.ts';

/**
 * Where a Responses call's answer goes; `http/` implements it over the HTTP response. The first `sendEvent` starts
 * the event stream: from then on errors can only be sent in-stream (an `error` event, then `response.failed`).
 */
export type ResponseSink = {
  sendResponse: (response: ResponseObject) => void;
  sendEvent: (event: SequencedEvent) => void;
  endStream: () => void;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
};
