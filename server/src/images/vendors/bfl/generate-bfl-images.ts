import { setTimeout as sleep } from 'node:timers/promises';
import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { joinUrl } from '../../../providers/shared/join-url.ts';
import { postJson, type UpstreamResponse } from '../../../providers/shared/post-json.ts';
import { readUpstreamBody } from '../../../providers/shared/read-upstream-body.ts';
import type { GeneratedImages, ImageCallInput } from '../../image-client.ts';
import type { ImageDatum } from '../../image-request.ts';
import { getUpstream, readUpstreamBytes } from '../shared/get-upstream.ts';
import { parseBflPollAnswer, parseBflSubmitAnswer, type BflTaskState } from './parse-bfl-answers.ts';
import { parseBflError } from './parse-bfl-error.ts';

/** BFL asks clients to poll about twice a second. */
const pollIntervalMs = 500;
const maxErrorBodyBytes = 64 * 1024;
const maxImageBytes = 32 * 1024 * 1024;

/**
 * FLUX through BFL's asynchronous API. One task draws one image, so n images are n tasks run side by side: submit
 * (`POST /v1/<model>` with `x-key`), poll until `Ready`, then take `result.sample`, as a URL or downloaded to base64.
 * The call's deadline (the signal) bounds the whole exchange; a moderated task is a content-policy refusal.
 * @see https://docs.bfl.ai/quick_start/generating_images
 */
export async function generateBflImages(input: ImageCallInput): Promise<GeneratedImages> {
  const siblings = new AbortController();
  const signal = AbortSignal.any([input.signal, siblings.signal]);
  const tasks = Array.from({ length: input.job.count }, () =>
    generateOne({ ...input, signal }).catch((error: unknown) => {
      siblings.abort(error);
      throw error;
    }),
  );
  const settled = await Promise.allSettled(tasks);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw input.signal.aborted ? (input.signal.reason ?? failure.reason) : firstCause(settled);
  return { images: settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])) };
}

async function generateOne(input: ImageCallInput): Promise<ImageDatum> {
  const key = input.target.credential ?? '';
  const submitted = await postJson({
    request: {
      url: joinUrl(input.target.baseUrl, `v1/${encodeURIComponent(input.target.upstreamModel)}`),
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-key': key },
      body: JSON.stringify({
        prompt: input.job.prompt,
        width: input.job.width,
        height: input.job.height,
        output_format: input.job.outputFormat ?? 'png',
      }),
    },
    dispatcher: input.dispatcher,
    signal: input.signal,
    timeouts: input.timeouts,
  });
  const task = parseBflSubmitAnswer(await readAnswer(submitted));
  const pollingUrl = choosePollingUrl(input.target.baseUrl, task);
  for (;;) {
    const state = await poll(input, { pollingUrl, key });
    if (state.kind === 'ready') return fetchSample(input, state.sampleUrl);
    await sleep(pollIntervalMs, undefined, { signal: input.signal });
  }
}

async function poll(input: ImageCallInput, task: { pollingUrl: string; key: string }): Promise<BflTaskState> {
  const response = await getUpstream({
    url: task.pollingUrl,
    headers: { accept: 'application/json', 'x-key': task.key },
    dispatcher: input.dispatcher,
    signal: input.signal,
    timeouts: input.timeouts,
  });
  return parseBflPollAnswer(await readAnswer(response));
}

async function fetchSample(input: ImageCallInput, sampleUrl: string): Promise<ImageDatum> {
  if (input.job.responseFormat === 'url') return { url: sampleUrl };
  // The delivery URL is signed: it gets no key, so our credential never leaves for another host.
  const response = await getUpstream({
    url: sampleUrl,
    headers: {},
    dispatcher: input.dispatcher,
    signal: input.signal,
    timeouts: input.timeouts,
  });
  if (response.status < 200 || response.status > 299) throw await readFailure(response);
  const bytes = await readUpstreamBytes(response.body, { maxBytes: maxImageBytes });
  return { b64_json: bytes.toString('base64') };
}

async function readAnswer(response: UpstreamResponse): Promise<unknown> {
  if (response.status < 200 || response.status > 299) throw await readFailure(response);
  return readUpstreamBody(response.body);
}

async function readFailure(response: UpstreamResponse): Promise<UpstreamFailureError> {
  const body = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
  return new UpstreamFailureError(parseBflError({ status: response.status, body, headers: response.headers }));
}

/**
 * BFL may hand the task to a regional host (`api.us1.bfl.ai`) and only that host knows it, so its `polling_url` is
 * followed, but only to a BFL host or the route's own origin: the poll carries our key.
 */
function choosePollingUrl(baseUrl: string, task: { id: string; polling_url?: string | undefined }): string {
  const fallback = `${joinUrl(baseUrl, 'v1/get_result')}?id=${encodeURIComponent(task.id)}`;
  if (!task.polling_url) return fallback;
  try {
    const url = new URL(task.polling_url);
    const isBflHost = url.protocol === 'https:' && (url.hostname === 'bfl.ai' || url.hostname.endsWith('.bfl.ai'));
    return isBflHost || url.origin === new URL(baseUrl).origin ? url.toString() : fallback;
  } catch {
    return fallback;
  }
}

/** Of several failed tasks, the one that failed first on its own (the others were aborted because of it). */
function firstCause(settled: readonly PromiseSettledResult<ImageDatum>[]): unknown {
  const reasons = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  return reasons.find((reason) => reason instanceof UpstreamFailureError) ?? reasons[0];
}
