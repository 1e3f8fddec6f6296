import { UpstreamFailureError, type ProviderAdapter } from './provider-adapter.ts';
import { chatProviderIds, isChatProviderId, type ChatProviderId, type ProviderId } from './provider-id.ts';
import type { VendorDefinition } from './vendor-definition.ts';
import { vendors } from './vendors.ts';

/** Every chat provider type a route can name, and the adapter that speaks its wire format (from `vendors.ts`). */
export const providerAdapters: Readonly<Record<ChatProviderId, ProviderAdapter>> = Object.fromEntries(
  chatProviderIds.map((id) => [id, vendors[id].chatAdapter]),
) as Record<ChatProviderId, ProviderAdapter>;

/**
 * The chat adapter of a route's provider. An image-only provider (Black Forest Labs) has none: a chat route to it is
 * a misconfigured route, reported as a route failure so the pipeline fails over to the next one.
 */
export function getProviderAdapter(id: ProviderId): ProviderAdapter {
  if (isChatProviderId(id)) return providerAdapters[id];
  throw new UpstreamFailureError({
    kind: 'credential',
    status: 404,
    message: `The upstream provider type \`${id}\` serves no chat models.`,
    vendorCode: 'no_chat_adapter',
  });
}

/** A route's fill-in-the-middle adapter for this `suffix`, or undefined when its vendor has no FIM API. */
export function findFimAdapter(id: ProviderId, suffix: string): ProviderAdapter | undefined {
  const vendor: VendorDefinition = vendors[id];
  return vendor.createFimAdapter?.(suffix);
}
