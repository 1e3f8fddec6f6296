import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accumulateChoice } from '../test-support/assert-chunk-stream.ts';
import { readErrorFixture, replayStreamFixture } from '../test-support/replay-fixture.ts';
import { azureAdapter, defaultAzureApiVersion } from './azure-adapter.ts';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const request = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hi' }] };
const target = { baseUrl: 'https://contoso.openai.azure.com/', credential: 'azure-key', upstreamModel: 'gpt-4o-prod' };

describe('Azure OpenAI adapter', () => {
  it('posts to the deployment URL with the api-version and the key in the api-key header', () => {
    const built = azureAdapter.buildRequest({
      request,
      target: { ...target, options: { api_version: '2025-01-01-preview' } },
      isStreaming: true,
    });
    assert.equal(
      built.url,
      'https://contoso.openai.azure.com/openai/deployments/gpt-4o-prod/chat/completions?api-version=2025-01-01-preview',
    );
    assert.equal(built.headers['api-key'], 'azure-key');
    assert.equal(built.headers['authorization'], undefined);
    const body = JSON.parse(built.body) as { stream: boolean; stream_options: { include_usage: boolean } };
    assert.equal(body.stream, true);
    assert.equal(body.stream_options.include_usage, true);
  });

  it('uses the default GA api-version when the route sets none, and escapes the deployment name', () => {
    const built = azureAdapter.buildRequest({
      request,
      target: { ...target, upstreamModel: 'my deployment' },
      isStreaming: false,
    });
    assert.equal(
      built.url,
      `https://contoso.openai.azure.com/openai/deployments/my%20deployment/chat/completions?api-version=${defaultAzureApiVersion}`,
    );
  });

  it('passes over the prompt-filter chunk that opens an Azure stream', async () => {
    const { chunks, error } = await replayStreamFixture(azureAdapter, fixture('streamed-text-with-usage.chunks.txt'));
    assert.equal(error, undefined);
    assert.equal(accumulateChoice(chunks).content, 'Hello! How can I help?');
    assert.ok(chunks.every((chunk) => chunk.model === 'client-model'));
  });

  it('treats a rejected key as our credential failing, a 429 as retryable with its Retry-After', () => {
    const rejected = azureAdapter.parseError(readErrorFixture(fixture('invalid-key-error.json')));
    assert.equal(rejected.kind, 'credential');
    assert.ok(!rejected.message.includes('subscription key'), 'vendor words are not shown for route failures');
    const limited = azureAdapter.parseError(readErrorFixture(fixture('rate-limit-error.json')));
    assert.equal(limited.kind, 'retryable');
    assert.equal(limited.retryAfterMs, 6000);
  });

  it('returns a content-filter rejection of the prompt to the client', () => {
    const failure = azureAdapter.parseError(readErrorFixture(fixture('error-body.json')));
    assert.equal(failure.kind, 'request');
    assert.equal(failure.vendorCode, 'content_filter');
  });
});
