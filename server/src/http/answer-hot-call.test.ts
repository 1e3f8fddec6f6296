import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { ServiceUnavailableError } from '../errors/service-unavailable-error.ts';
import { answerHotCall } from './answer-hot-call.ts';

describe('answerHotCall', () => {
  const logLines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }) as FastifyBaseLogger;
  let call: () => Promise<object | string | undefined> = async () => undefined;
  const server = createServer((incoming, response) => {
    void answerHotCall({ incoming, response, requestId: 'req_test', log }, () => call());
  });
  let url: string;
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest(url, { method: 'POST' }, (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (text: string) => (body += text));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });

  test('an answer goes out as JSON; an error thrown before it, in the OpenAI shape with its status', async () => {
    call = async () => ({ object: 'chat.completion' });
    assert.deepEqual(await post(), { status: 200, body: '{"object":"chat.completion"}' });
    call = async () => {
      throw new ServiceUnavailableError('Busy.', { headers: { 'retry-after': '3' } });
    };
    const refused = await post();
    assert.equal(refused.status, 503);
    assert.equal((JSON.parse(refused.body) as { error: { message: string } }).error.message, 'Busy.');
  });

  test('an error answer that cannot be written closes the connection, logs, and leaves the process running', async () => {
    call = async () => {
      // A header value Node refuses to write: the error answer itself fails.
      throw new ServiceUnavailableError('Busy.', { headers: { 'retry-after': 'not\nvalid' } });
    };
    await assert.rejects(post(), { code: 'ECONNRESET' });
    assert.ok(logLines.some((line) => line.includes('"msg":"request failed"')));
    call = async () => 'still serving';
    assert.deepEqual(await post(), { status: 200, body: 'still serving' });
  });
});
