/** How long the gateway waits on an upstream, per phase of the call. */
export type UpstreamTimeouts = {
  /** TCP and TLS connect. undici applies it per connection, so it is set on the Agent (`createUpstreamAgent`). */
  connectTimeoutMs: number;
  /** From sending the request to receiving the response headers. */
  firstByteTimeoutMs: number;
  /** The longest silence between two chunks of the response body. */
  idleTimeoutMs: number;
};

/**
 * A streamed answer sends its headers at once and may then think in silence for minutes (reasoning models), so its
 * idle limit is long; a non-streamed answer sends its headers only when the whole answer is ready, so its first-byte
 * limit is long (the OpenAI SDKs default to 600 s) and its body arrives in one go.
 */
const streamingTimeouts = { connectTimeoutMs: 10_000, firstByteTimeoutMs: 120_000, idleTimeoutMs: 600_000 };
const nonStreamingTimeouts = { connectTimeoutMs: 10_000, firstByteTimeoutMs: 600_000, idleTimeoutMs: 60_000 };

export function defaultUpstreamTimeouts(input: { isStreaming: boolean }): UpstreamTimeouts {
  return { ...(input.isStreaming ? streamingTimeouts : nonStreamingTimeouts) };
}
