import type { z } from 'zod';
import type { DialectQuirks } from './openai/dialect-quirks.ts';
import type { ProviderAdapter } from './provider-adapter.ts';

/** The image APIs the gateway speaks; a vendor lists the ones its routes serve. */
export type ImageApi = 'openai' | 'gemini-image' | 'imagen' | 'bfl';

/** The vendor-specific settings a route may carry, by their operator-API name (stored together, as one JSON field). */
export type RouteOptionName = 'api_version' | 'vertex_project' | 'vertex_location';
export type RouteOptions = Readonly<Partial<Record<RouteOptionName, string>>>;

/** The embedding APIs the gateway speaks (`/v1/embeddings`); a vendor lists the ones its routes serve. */
export type EmbeddingApi = 'openai' | 'gemini';

/** The route options a vendor takes, checked by its schema; other vendors' routes may not set them. */
export type VendorRouteOptions = {
  /** An object schema over the vendor's own options; its issue messages are shown to the operator as they are. */
  schema: z.ZodObject<Partial<Record<RouteOptionName, z.ZodType<string | undefined>>>>;
  /** Said when a route of another vendor sets one of them. */
  foreignUseMessage: string;
};

/**
 * Everything the gateway needs to know about one vendor, defined once in the vendor's folder and listed in
 * `vendors.ts`; every per-vendor table (adapter registry, endpoints, credential keys, local servers, image clients)
 * is derived from that list.
 */
export type VendorDefinition<CredentialKey extends string | undefined = string | undefined> = {
  /** The chat adapter that speaks the vendor's wire format; undefined for an image-only vendor. */
  chatAdapter: ProviderAdapter | undefined;
  /** The image APIs a route to this vendor can serve (`images/find-image-client.ts`). */
  imageApis: readonly ImageApi[];
  /** The embedding APIs a route to this vendor can serve (`embeddings/find-embedding-client.ts`); absent: none. */
  embeddingApis?: readonly EmbeddingApi[];
  /** The vendor's fill-in-the-middle API for `/v1/completions` with `suffix`; absent: the vendor has none. */
  createFimAdapter?: (suffix: string) => ProviderAdapter;
  /** The public API root; undefined when every address is the operator's (local servers, Azure, Vertex). */
  publicBaseUrl: string | undefined;
  /** The environment variable whose key enables the vendor's implicit routes. */
  credentialKey: CredentialKey;
  /** A server on the operator's own network (vLLM, Ollama, llama.cpp): routes may run without a credential. */
  isLocal: boolean;
  /** Where the vendor's simulator serves it, under the simulator's origin (sandbox mode). */
  simulatorPath: string;
  /** The vendor's own route settings (Azure's api-version, Vertex's project and location); undefined: none. */
  routeOptions: VendorRouteOptions | undefined;
};

export type ChatVendorDefinition<CredentialKey extends string | undefined = string | undefined> =
  VendorDefinition<CredentialKey> & { chatAdapter: ProviderAdapter };

/** A vendor served by the shared OpenAI-dialect adapter with its own quirk hooks. */
export type CompatibleVendorDefinition<CredentialKey extends string | undefined = string | undefined> =
  ChatVendorDefinition<CredentialKey> & { quirks: DialectQuirks };

export type ImageOnlyVendorDefinition<CredentialKey extends string | undefined = string | undefined> =
  VendorDefinition<CredentialKey> & { chatAdapter: undefined };
