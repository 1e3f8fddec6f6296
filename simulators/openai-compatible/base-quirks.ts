import { reasoningForEffort } from '../shared/conversation.ts';
import { alphanumeric, lowerHex } from '../shared/random.ts';
import type { DialectQuirks } from './dialect-quirks.ts';
import { formatChatUsage } from './format-chat-usage.ts';
import { renderOpenAiErrorBody } from './render-openai-error-body.ts';

/** OpenAI's own behaviour; each vendor file spreads this and overrides its deviations. */
export const baseQuirks = {
  apiRoots: ['/v1'],
  isKeyRequired: true,
  createRequestId: (ids) => `req_${ids.nextString(lowerHex, 32)}`,
  requestIdHeaders: (requestId) => ({ 'x-request-id': requestId }),
  createCompletionId: (ids) => `chatcmpl-${ids.nextString(alphanumeric, 29)}`,
  createToolCallId: (ids) => `call_${ids.nextString(alphanumeric, 24)}`,
  snapshotModel: (model) => model,
  cachePolicy: { kind: 'none' },
  reasoningFor: (request) => (request.reasoning_effort ? reasoningForEffort(request.reasoning_effort) : undefined),
  reasoningField: undefined,
  hasRefusalField: false,
  findRequestError: () => undefined,
  renderErrorBody: renderOpenAiErrorBody,
  midStreamErrorEvents: undefined,
  streamUsagePlacement: 'final-empty-chunk',
  isStreamUsageAlwaysSent: false,
  keepAliveComments: [],
  formatUsage: formatChatUsage,
  decorateChunk: () => undefined,
  decorateCompletion: () => undefined,
} satisfies Omit<DialectQuirks, 'vendor' | 'modelIds'>;
