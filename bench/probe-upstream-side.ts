import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getProviderAdapter } from '../server/src/providers/registry.ts';
import { postJson, postJsonWhole } from '../server/src/providers/shared/post-json.ts';
import { readUpstreamText } from '../server/src/providers/shared/read-upstream-body.ts';
import { createUpstreamAgent } from '../server/src/upstream/create-upstream-agent.ts';
import { startNodeProcess } from './start-process.ts';

/**
 * The upstream side of a non-streamed OpenAI call on its own, as `call-provider.ts` runs it: the adapter's request,
 * the HTTP call, the whole body read, the relay's scan and its render. Prints the CPU time and the bytes allocated
 * per call in this process (the mock upstream runs in another), with the young generation made so large that no
 * collection runs during a round: the heap's growth over a round is what the calls allocated. Not part of
 * `npm run bench`; docs/benchmarks.md ("Issue 20, fourth session").
 *
 *   npm exec -- node bench/probe-upstream-side.ts [--calls N] [--via dispatch|request]
 *
 * `--via request` sends the call as streams are sent (undici's `request` and a `Readable` body, `postJson`) instead
 * of the whole-answer path `call-provider.ts` takes (`postJsonWhole`), to compare the two in one checkout.
 */
const youngGenerationFlags = ['--expose-gc', '--max-semi-space-size=512', '--min-semi-space-size=512'];
if (!process.execArgv.includes('--expose-gc')) {
  const child = spawnSync(process.execPath, [...youngGenerationFlags, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(child.status ?? 1);
}

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '4000' }, via: { type: 'string', default: 'dispatch' } },
});
const send = values.via === 'request' ? postJson : postJsonWhole;
const calls = Number(values.calls);
const concurrency = 8;
const rounds = 3;

const mock = await startNodeProcess({ args: [path.join(import.meta.dirname, 'processes/mock-upstream.ts'), '0'] });
const agent = createUpstreamAgent({ connectTimeoutMs: 1000, addresses: { allowPrivate: true, trustedOrigins: [] } });
try {
  const adapter = getProviderAdapter('openai');
  const relayResponse = adapter.relayResponse;
  if (relayResponse === undefined) throw new Error('the OpenAI adapter relays answers');
  const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };
  const target = { baseUrl: `${mock.url}/v1`, credential: 'sk-bench', upstreamModel: 'gpt-4o-mini' };
  const timeouts = { connectTimeoutMs: 10_000, firstByteTimeoutMs: 600_000, idleTimeoutMs: 60_000 };
  const identity = { requestedModel: 'gpt-4o-mini', createdUnixSeconds: 1_700_000_000, id: 'chatcmpl-bench' };
  const billedUsage = { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22, cost: 0.00001 };
  const signal = new AbortController().signal;
  const callOnce = async () => {
    const httpRequest = adapter.buildRequest({
      request,
      target: { ...target, defaultMaxOutputTokens: 4096 },
      isStreaming: false,
    });
    const response = await send({ request: httpRequest, dispatcher: agent, signal, timeouts });
    const relayed = relayResponse({ text: await readUpstreamText(response.body), ...identity });
    if (relayed === undefined) throw new Error('the mock answer was not relayed');
    return relayed.render(billedUsage);
  };
  const run = async (count: number) => {
    let left = count;
    const caller = async () => {
      for (; left > 0; left -= 1) await callOnce();
    };
    await Promise.all(Array.from({ length: concurrency }, caller));
  };
  await run(3_000);
  for (let round = 1; round <= rounds; round++) {
    (globalThis as { gc?: () => void }).gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const cpuBefore = process.cpuUsage();
    await run(calls);
    const cpu = process.cpuUsage(cpuBefore);
    const allocatedBytes = process.memoryUsage().heapUsed - heapBefore;
    console.log(
      `round ${round}: ${((cpu.user + cpu.system) / calls).toFixed(1)} µs of CPU and ` +
        `${(allocatedBytes / calls / 1024).toFixed(2)} KB allocated per call over ${calls} calls at c=${concurrency}` +
        ` (via ${values.via})`,
    );
  }
} finally {
  await agent.close();
  await mock.stop();
}
