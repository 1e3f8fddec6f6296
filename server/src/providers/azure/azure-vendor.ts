import { z } from 'zod';
import type { ChatVendorDefinition } from '../vendor-definition.ts';
import { azureAdapter } from './azure-adapter.ts';

/**
 * Azure's data-plane versions are dates, some with `-preview`.
 * @see https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle
 */
const apiVersionPattern = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

/** Azure OpenAI addresses are per customer resource: operator routes only, so no public root and no env key. */
export const azureVendor: ChatVendorDefinition<undefined> = {
  chatAdapter: azureAdapter,
  imageApis: [],
  publicBaseUrl: undefined,
  credentialKey: undefined,
  isLocal: false,
  simulatorPath: '/azure',
  routeOptions: {
    schema: z.object({
      api_version: z
        .string()
        .refine((value) => apiVersionPattern.test(value), {
          error: (issue) =>
            `The api-version "${String(issue.input)}" is not of the form 2024-10-21 or 2025-01-01-preview.`,
        })
        .optional(),
    }),
    foreignUseMessage: 'An api-version applies to Azure OpenAI routes only.',
  },
};
