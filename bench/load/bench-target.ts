/** One system the harness sends chat calls to: the mock upstream alone, the raw floor, a gateway. */
export type BenchTarget = {
  /** Short name shown in the table. */
  label: string;
  /** Origin, e.g. `http://127.0.0.1:8080`; calls go to `<origin><path>`. */
  origin: string;
  path: string;
  apiKey: string;
  model: string;
  /** The process to sample resident memory from, when it runs on this machine. */
  pid: number | undefined;
  /** Sent with every call, e.g. the routing headers another gateway expects. */
  extraHeaders?: Readonly<Record<string, string>>;
};

export function chatHeaders(target: BenchTarget): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${target.apiKey}`, ...target.extraHeaders };
}

/** A short chat call; streamed calls ask for the usage chunk, as metered clients do. */
export function chatBody(target: BenchTarget, input: { isStreaming: boolean }): string {
  return JSON.stringify({
    model: target.model,
    messages: [{ role: 'user', content: 'Say something short about foxes.' }],
    max_tokens: 1000,
    ...(input.isStreaming ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** Splits a base URL such as `http://host:4000/v1` into an origin and the chat completions path. */
export function splitChatUrl(baseUrl: string): { origin: string; path: string } {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  return { origin: url.origin, path: `${prefix.endsWith('/v1') ? prefix : `${prefix}/v1`}/chat/completions` };
}
