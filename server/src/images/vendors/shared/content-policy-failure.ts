import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { cleanVendorMessage } from '../../../providers/shared/clean-vendor-message.ts';

/**
 * A vendor's safety system refused the prompt or its image: the client's request is at fault (400, never retried
 * on another route, never billed), with the vendor's reason in the message.
 */
export function createContentPolicyFailure(input: { vendorName: string; reason: string }): UpstreamFailureError {
  return new UpstreamFailureError({
    kind: 'request',
    status: 400,
    message: cleanVendorMessage(
      `The request was refused by ${input.vendorName}'s content policy (${input.reason}). Rephrase the prompt and try again.`,
    ),
    param: 'prompt',
    vendorCode: 'content_policy_violation',
  });
}
