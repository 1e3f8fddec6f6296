import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { parseVendorBody } from '../../../providers/shared/parse-vendor-body.ts';
import { createContentPolicyFailure } from '../shared/content-policy-failure.ts';
import { bflResultSchema, bflSubmitResponseSchema, type BflResult } from './bfl-api.ts';

const vendorName = 'Black Forest Labs';
const pendingStatuses = new Set(['Pending', 'Queued', 'Processing']);
const moderatedStatuses = new Set(['Request Moderated', 'Content Moderated']);

/** Where a task stands after one poll: still running, or done with the signed URL of its picture. */
export type BflTaskState = { kind: 'pending' } | { kind: 'ready'; sampleUrl: string };

/**
 * A submit answer → the task id and the URL to poll it at.
 * @see https://docs.bfl.ai/quick_start/generating_images
 */
export function parseBflSubmitAnswer(body: unknown): { id: string; polling_url?: string | undefined } {
  return parseVendorBody(bflSubmitResponseSchema, body, vendorName);
}

/**
 * A poll answer → the task's state. A moderated task (`Request Moderated`: the prompt; `Content Moderated`: the
 * picture) is a content-policy refusal with BFL's reasons; any other status that is neither pending nor `Ready`
 * (`Error`, `Task not found`) is a route failure, as is `Ready` without an http(s) sample URL.
 * @see https://docs.bfl.ai/api_integration/errors
 */
export function parseBflPollAnswer(body: unknown): BflTaskState {
  const result = parseVendorBody(bflResultSchema, body, vendorName);
  if (pendingStatuses.has(result.status)) return { kind: 'pending' };
  if (moderatedStatuses.has(result.status)) {
    throw createContentPolicyFailure({ vendorName, reason: describeModeration(result) });
  }
  if (result.status !== 'Ready') {
    throw new UpstreamFailureError({
      kind: 'retryable',
      status: 502,
      message: `The upstream provider (${vendorName}) could not finish the image (status "${result.status}").`,
      vendorCode: result.status,
    });
  }
  const sampleUrl = result.result?.sample;
  if (!sampleUrl || !/^https?:\/\//.test(sampleUrl)) {
    throw new UpstreamFailureError({
      kind: 'retryable',
      status: 502,
      message: `The upstream provider (${vendorName}) reported a finished image without its address.`,
      vendorCode: 'missing_sample',
    });
  }
  return { kind: 'ready', sampleUrl };
}

function describeModeration(result: BflResult): string {
  const details = result.details;
  if (typeof details === 'object' && details !== null && 'Moderation Reasons' in details) {
    const reasons = details['Moderation Reasons'];
    if (Array.isArray(reasons) && reasons.length > 0) return `${result.status}: ${reasons.join(', ')}`;
  }
  return result.status;
}
