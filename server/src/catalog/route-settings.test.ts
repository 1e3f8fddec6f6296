import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { checkRouteOptions, convertRouteSettings, readRouteOptions } from './route-settings.ts';

const refusal = (message: RegExp, param: string) => (error: unknown) => {
  assert.ok(error instanceof InvalidRequestError, String(error));
  assert.match(error.message, message);
  assert.equal(error.param, param);
  return true;
};

describe("a route's vendor options, checked by the vendor's schema", () => {
  it('accepts each vendor its own options, and none for vendors that take none', () => {
    checkRouteOptions('azure', { api_version: '2025-01-01-preview' });
    checkRouteOptions('azure', {});
    checkRouteOptions('vertex', { vertex_project: 'acme-prod-1', vertex_location: 'europe-west4' });
    checkRouteOptions('openai', {});
  });

  it("refuses another vendor's option with that vendor's message", () => {
    assert.throws(
      () => checkRouteOptions('openai', { api_version: '2024-10-21' }),
      refusal(/applies to Azure OpenAI routes only/, 'api_version'),
    );
    assert.throws(
      () => checkRouteOptions('azure', { vertex_location: 'global' }),
      refusal(/apply to Vertex AI routes only/, 'vertex_location'),
    );
  });

  it('refuses a malformed value, naming the option', () => {
    assert.throws(
      () => checkRouteOptions('azure', { api_version: 'latest' }),
      refusal(/The api-version "latest" is not of the form/, 'api_version'),
    );
    assert.throws(
      () => checkRouteOptions('vertex', { vertex_project: 'Acme', vertex_location: 'global' }),
      refusal(/Google Cloud project id/, 'vertex_project'),
    );
  });

  it('refuses a Vertex route without its project or location', () => {
    assert.throws(() => checkRouteOptions('vertex', {}), refusal(/Google Cloud project id/, 'vertex_project'));
    assert.throws(
      () => checkRouteOptions('vertex', { vertex_project: 'acme-prod-1' }),
      refusal(/needs its location/, 'vertex_location'),
    );
  });
});

describe("a route's vendor options, stored as one field", () => {
  it('merges the given options into the stored ones: set, trimmed, removed by null or blank, others kept', () => {
    const stored = JSON.stringify({ vertex_project: 'acme-prod-1', vertex_location: 'us-central1' });
    const changed = convertRouteSettings({ options: { vertex_location: ' europe-west4 ' } }, stored);
    assert.deepEqual(readRouteOptions(changed.vendor_options ?? null), {
      vertex_project: 'acme-prod-1',
      vertex_location: 'europe-west4',
    });
    const cleared = convertRouteSettings({ options: { vertex_project: null, vertex_location: '' } }, stored);
    assert.equal(cleared.vendor_options, null, 'no options left: the field is null');
    assert.equal(convertRouteSettings({ weight: 2 }, stored).vendor_options, undefined, 'not given: left as is');
  });
});
