import type { ChatVendorDefinition } from '../vendor-definition.ts';
import { geminiAdapter } from './gemini-adapter.ts';

/** The Gemini API serves chat, Gemini's own image models and Imagen on one key. */
export const geminiVendor: ChatVendorDefinition<'GEMINI_API_KEY'> = {
  chatAdapter: geminiAdapter,
  imageApis: ['gemini-image', 'imagen'],
  embeddingApis: ['gemini'],
  publicBaseUrl: 'https://generativelanguage.googleapis.com',
  credentialKey: 'GEMINI_API_KEY',
  isLocal: false,
  simulatorPath: '/gemini',
  routeOptions: undefined,
};
