import { z } from 'zod';
import type { ChatVendorDefinition } from '../vendor-definition.ts';
import { vertexAdapter } from './vertex-adapter.ts';

/** Google Cloud project ids: 6–30 lower-case letters, digits or hyphens, starting with a letter. */
const projectPattern = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const locationPattern = /^(global|[a-z]+-[a-z]+\d+)$/;
const projectMessage = 'A Vertex AI route needs its Google Cloud project id (6–30 of a-z, 0-9 and -).';
const locationMessage = 'A Vertex AI route needs its location, e.g. us-central1, europe-west4 or global.';

/** Vertex AI addresses are per Google Cloud project and location: operator routes only. */
export const vertexVendor: ChatVendorDefinition<undefined> = {
  chatAdapter: vertexAdapter,
  imageApis: [],
  publicBaseUrl: undefined,
  credentialKey: undefined,
  isLocal: false,
  simulatorPath: '/vertex',
  routeOptions: {
    schema: z.object({
      vertex_project: z.string({ error: projectMessage }).regex(projectPattern, { error: projectMessage }),
      vertex_location: z.string({ error: locationMessage }).regex(locationPattern, { error: locationMessage }),
    }),
    foreignUseMessage: 'A project and location apply to Vertex AI routes only.',
  },
};
