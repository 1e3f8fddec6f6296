import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ChatChunk } from '../../openai-api/chat-completion.ts';
import type { ProviderAdapter } from '../provider-adapter.ts';
import { parseSse } from '../shared/parse-sse.ts';
import { readRelayedJson } from '../shared/relayed-chunk.ts';
import { parseBodyText } from '../shared/parse-error-body.ts';

export const testIdentity = { requestedModel: 'client-model', createdUnixSeconds: 1_700_000_000, id: 'chatcmpl-test' };
/** What every converted chunk must carry, given `testIdentity`. */
export const expectedChunkIdentity = { model: testIdentity.requestedModel, id: testIdentity.id };

/** A recorded upstream failure: the status, headers and body as the vendor sent them. */
export type ErrorFixture = { status: number; headers: Record<string, string>; body: unknown };

export function readJsonFixture(url: URL): unknown {
  return parseBodyText(readFileSync(url, 'utf8'));
}

const errorFixtureSchema = z.object({
  status: z.number().int(),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.unknown(),
});

export function readErrorFixture(url: URL): ErrorFixture {
  return errorFixtureSchema.parse(readJsonFixture(url));
}

/** The fixture's bytes in small pieces, so event and UTF-8 boundaries fall mid-chunk as on a real socket. */
export async function* streamBytes(bytes: Uint8Array, pieceBytes = 7): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += pieceBytes) yield bytes.subarray(offset, offset + pieceBytes);
}

export function parseResponseFixture(adapter: ProviderAdapter, url: URL) {
  return adapter.parseResponse({ body: readJsonFixture(url), ...testIdentity });
}

/** Replays a recorded SSE stream through parseSse and the adapter; `error` is what the stream threw, if anything. */
export async function replayStreamFixture(
  adapter: ProviderAdapter,
  url: URL,
): Promise<{ chunks: ChatChunk[]; error: unknown }> {
  const events = parseSse(streamBytes(new Uint8Array(readFileSync(url))));
  const chunks: ChatChunk[] = [];
  try {
    for await (const chunk of adapter.parseStream({ events, ...testIdentity })) chunks.push(chunk);
    return { chunks, error: undefined };
  } catch (error) {
    return { chunks, error };
  }
}

/**
 * The replay as the client is sent it: a chunk the adapter forwards as the vendor wrote it becomes its relayed text
 * (the gateway's identity spliced in), since that text, not the parsed copy kept for billing, is what goes out.
 */
export async function replayStreamAsSent(
  adapter: ProviderAdapter,
  url: URL,
): Promise<{ chunks: ChatChunk[]; error: unknown }> {
  const { chunks, error } = await replayStreamFixture(adapter, url);
  return { chunks: chunks.map(asSent), error };
}

function asSent(chunk: ChatChunk): ChatChunk {
  const json = readRelayedJson(chunk);
  return json === undefined ? chunk : (parseBodyText(json) as ChatChunk);
}
