import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-dialect upstream that streams a long answer as fast as TCP lets it: `POST /v1/chat/completions` answers
 * `chunkCount` chunks of `contentBytes` ASCII characters each, a usage chunk and `data: [DONE]`, writing the next
 * event only when the socket takes it (it honours backpressure, as a real server does). It counts the bytes the
 * socket has accepted, so a test can see whether the gateway is still pulling.
 */
export type FastOpenAiUpstream = {
  /** Base URL for a route (`…/v1`). */
  baseUrl: string;
  bytesWritten: () => number;
  /** Streams that have written their last event. */
  finishedStreams: () => number;
  close: () => Promise<void>;
};

export async function startFastOpenAiUpstream(input: {
  chunkCount: number;
  contentBytes: number;
}): Promise<FastOpenAiUpstream> {
  let bytesWritten = 0;
  let finishedStreams = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.once('end', () => {
      void streamAnswer(response, input, (bytes) => (bytesWritten += bytes)).then((isFinished) => {
        if (isFinished) finishedStreams += 1;
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    bytesWritten: () => bytesWritten,
    finishedStreams: () => finishedStreams,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function streamAnswer(
  response: ServerResponse,
  input: { chunkCount: number; contentBytes: number },
  countBytes: (bytes: number) => void,
): Promise<boolean> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-fast', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'fast-model' };
  const content = 'a'.repeat(input.contentBytes);
  const event = (payload: object) => `data: ${JSON.stringify({ ...base, ...payload })}\n\n`;
  const write = async (text: string): Promise<boolean> => {
    if (response.destroyed) return false;
    const isBelowHighWaterMark = response.write(text);
    countBytes(Buffer.byteLength(text));
    if (!isBelowHighWaterMark) await waitForDrain(response);
    return !response.destroyed;
  };
  if (
    !(await write(event({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })))
  )
    return false;
  for (let index = 0; index < input.chunkCount; index += 1) {
    if (!(await write(event({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })))) return false;
  }
  const usage = { prompt_tokens: 10, completion_tokens: input.chunkCount, total_tokens: 10 + input.chunkCount };
  if (!(await write(event({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })))) return false;
  if (!(await write(event({ choices: [], usage })))) return false;
  if (!(await write('data: [DONE]\n\n'))) return false;
  response.end();
  return true;
}

function waitForDrain(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle);
      response.off('close', settle);
      resolve();
    };
    response.on('drain', settle);
    response.on('close', settle);
  });
}
