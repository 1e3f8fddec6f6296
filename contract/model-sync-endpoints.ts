import { operatorErrors, type ApiEndpoint } from './api-endpoint.ts';
import {
  applyModelSyncRequestSchema,
  modelSyncReportSchema,
  modelSyncResultSchema,
  modelSyncSettingsSchema,
} from './operator-model-sync.ts';

const settings = { name: 'ModelSyncSettings', schema: modelSyncSettingsSchema } as const;

/** Model sync (docs/catalogue.md, "Sync"): compare the catalogue with the price data and the vendors' model lists. */
export const modelSyncEndpoints = {
  previewModelSync: {
    method: 'get',
    path: '/api/operator/models/sync',
    summary: 'Compare the catalogue with the genai-prices data and the vendors’ model lists (writes nothing)',
    auth: 'operator',
    response: {
      status: 200,
      description: 'New models, list price changes and models no longer listed, with the sources read',
      json: { name: 'ModelSyncReport', schema: modelSyncReportSchema },
    },
    errors: operatorErrors,
  },
  applyModelSync: {
    method: 'post',
    path: '/api/operator/models/sync',
    summary: 'Apply all or part of a fresh sync; a change applied by another operator meanwhile is not repeated',
    auth: 'operator',
    body: { name: 'ApplyModelSyncRequest', schema: applyModelSyncRequestSchema },
    response: {
      status: 200,
      description: 'What was applied, model by model',
      json: { name: 'ModelSyncResult', schema: modelSyncResultSchema },
    },
    errors: { ...operatorErrors, '400': 'Invalid selection' },
  },
  getModelSyncSettings: {
    method: 'get',
    path: '/api/operator/models/sync/settings',
    summary: 'The sync schedule and its auto-add policy',
    auth: 'operator',
    response: { status: 200, description: 'The settings', json: settings },
    errors: operatorErrors,
  },
  setModelSyncSettings: {
    method: 'put',
    path: '/api/operator/models/sync/settings',
    summary: 'Turn the sync schedule on or off and choose whether it adds new versions by itself',
    auth: 'operator',
    body: { name: 'ModelSyncSettingsRequest', schema: modelSyncSettingsSchema },
    response: { status: 200, description: 'The settings as stored', json: settings },
    errors: { ...operatorErrors, '400': 'Invalid settings' },
  },
} as const satisfies Record<string, ApiEndpoint>;
