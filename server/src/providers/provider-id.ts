import type { ChatVendorDefinition, CompatibleVendorDefinition } from './vendor-definition.ts';
import { vendors } from './vendors.ts';

/** Every upstream provider type a route can use: the keys of the vendor list. */
export type ProviderId = keyof typeof vendors;

/** Provider types that serve chat models; each has a chat adapter in its definition. */
export type ChatProviderId = {
  [Id in ProviderId]: (typeof vendors)[Id] extends ChatVendorDefinition ? Id : never;
}[ProviderId];

/** Vendors served by the shared OpenAI-dialect adapter with their own quirks (OpenAI itself apart). */
export type CompatibleVendorId = {
  [Id in ProviderId]: (typeof vendors)[Id] extends CompatibleVendorDefinition ? Id : never;
}[ProviderId];

export const providerIds = Object.keys(vendors) as readonly ProviderId[];

export const chatProviderIds: readonly ChatProviderId[] = providerIds.filter(isChatProviderId);

export function isProviderId(value: string): value is ProviderId {
  return Object.hasOwn(vendors, value);
}

export function isChatProviderId(value: string): value is ChatProviderId {
  return isProviderId(value) && vendors[value].chatAdapter !== undefined;
}
