import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { checkUpstreamUrl, resolveHost, type ResolveHost } from './check-upstream-url.ts';

/** A resolver with fixed answers, so no test depends on outside DNS. */
const fakeDns: ResolveHost = async (hostname) =>
  ({
    '127.0.0.1.nip.io': ['127.0.0.1'],
    'localtest.me': ['127.0.0.1', '::1'],
    'mixed.example': ['93.184.215.14', '10.0.0.7'],
    'api.vendor.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  })[hostname] ?? [];

const refusal = async (url: string, resolve: ResolveHost = fakeDns) => {
  try {
    await checkUpstreamUrl(url, { allowPrivateUpstreams: false, resolveHost: resolve });
    return undefined;
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError, String(error));
    assert.equal(error.param, 'base_url');
    return error;
  }
};

describe('checkUpstreamUrl', () => {
  it('refuses private, loopback and reserved address literals, in every spelling', async () => {
    for (const url of [
      'http://127.0.0.1:8000/v1',
      'http://2130706433/v1',
      'http://0x7f.1/v1',
      'http://[::1]/v1',
      'http://[::ffff:127.0.0.1]/v1',
      'http://[fd00::5]/v1',
      'http://[fe80::1]/v1',
      'http://169.254.169.254/latest',
      'http://100.100.100.200/v1',
      'http://198.18.0.1/v1',
      'http://224.0.0.1/v1',
      'http://240.0.0.1/v1',
      'http://0.0.0.0:11434/v1',
    ]) {
      const error = await refusal(url);
      assert.equal(error?.code, 'private_upstream_refused', url);
    }
  });

  it('resolves host names and refuses one whose addresses include a private one', async () => {
    for (const url of ['http://127.0.0.1.nip.io/v1', 'http://localtest.me/v1', 'https://mixed.example/v1']) {
      const error = await refusal(url);
      assert.equal(error?.code, 'private_upstream_refused', url);
      assert.match(error.message, /resolves to/);
    }
    assert.equal((await refusal('http://printer.local/v1'))?.code, 'private_upstream_refused');
    assert.equal((await refusal('http://vllm.internal/v1'))?.code, 'private_upstream_refused');
  });

  it('accepts public addresses, and a name that does not resolve (the connect-time guard checks it later)', async () => {
    assert.equal(await refusal('https://api.vendor.example/v1'), undefined);
    assert.equal(await refusal('https://93.184.215.14/v1'), undefined);
    assert.equal(await refusal('https://not-yet.example/v1'), undefined);
  });

  it('accepts anything with ALLOW_PRIVATE_UPSTREAMS, but never a bad URL', async () => {
    await checkUpstreamUrl('http://127.0.0.1:11434/v1', { allowPrivateUpstreams: true });
    for (const url of ['not a url', 'ftp://example.com/v1', 'https://user:secret@example.com/v1']) {
      await assert.rejects(checkUpstreamUrl(url, { allowPrivateUpstreams: true }), InvalidRequestError, url);
    }
  });

  it('uses the system resolver by default: localhost resolves to loopback', async () => {
    assert.ok((await resolveHost('localhost')).some((address) => address === '127.0.0.1' || address === '::1'));
    const error = await refusal('http://localhost:8000/v1', resolveHost);
    assert.equal(error?.code, 'private_upstream_refused');
  });
});
