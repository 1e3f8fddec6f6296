import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { parseGeminiError } from '../../../providers/gemini/errors.ts';
import { joinUrl } from '../../../providers/shared/join-url.ts';
import { postJson } from '../../../providers/shared/post-json.ts';
import { readUpstreamBody } from '../../../providers/shared/read-upstream-body.ts';
import type { ImageCallInput } from '../../image-client.ts';

const maxErrorBodyBytes = 64 * 1024;

/**
 * One call to a Gemini API model method (`:generateContent`, `:predict`) with the `x-goog-api-key` header; a failed
 * answer is classified like Gemini chat errors (a bad key comes back as a 400 `API_KEY_INVALID`).
 */
export async function postToGoogle(
  input: ImageCallInput,
  call: { method: 'generateContent' | 'predict'; body: unknown },
): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (input.target.credential) headers['x-goog-api-key'] = input.target.credential;
  const model = encodeURIComponent(input.target.upstreamModel);
  const response = await postJson({
    request: {
      url: joinUrl(input.target.baseUrl, `v1beta/models/${model}:${call.method}`),
      headers,
      body: JSON.stringify(call.body),
    },
    dispatcher: input.dispatcher,
    signal: input.signal,
    timeouts: input.timeouts,
  });
  if (response.status < 200 || response.status > 299) {
    const body = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
    throw new UpstreamFailureError(parseGeminiError({ status: response.status, body, headers: response.headers }));
  }
  return readUpstreamBody(response.body);
}
