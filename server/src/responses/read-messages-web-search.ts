import { z } from 'zod';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { isWebSearchTool, type MessagesRequest } from '../anthropic-api/messages-request.ts';
import { contextSizes, defaultMaxSearches, maxSearchesLimit, type WebSearchSettings } from './web-search-tool.ts';

const domainListSchema = z.array(z.string().trim().min(1)).optional();

/** @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool */
const webSearchToolSchema = z
  .object({
    type: z.string(),
    name: z.literal('web_search'),
    max_uses: z.number().int().min(1).optional(),
    allowed_domains: domainListSchema.nullable(),
    blocked_domains: domainListSchema.nullable(),
    user_location: z
      .object({ type: z.literal('approximate') })
      .loose()
      .nullable()
      .optional(),
  })
  .loose();

export type MessagesWebSearch = {
  settings: WebSearchSettings;
  /** `tool_choice` names `web_search`: the first round must search. */
  isForced: boolean;
};

/**
 * The `web_search_*` server tool of a Messages request as the gateway's search settings, or undefined without one
 * (or with `tool_choice: none`). The gateway runs the searches itself for every model (docs/messages.md): `max_uses`
 * caps them (at most `maxSearchesLimit`, which one credit hold covers), domain lists filter the results,
 * `user_location` is accepted and not used by the engines.
 */
export function readWebSearchTool(request: MessagesRequest): MessagesWebSearch | undefined {
  const tools = request.tools ?? [];
  const indexes = tools.flatMap((tool, index) => (isWebSearchTool(tool) ? [index] : []));
  const [index, second] = indexes;
  if (index === undefined || request.tool_choice?.type === 'none') return undefined;
  if (second !== undefined) {
    throw new InvalidRequestError('Only one web_search tool may be given.', { param: `tools[${second}]` });
  }
  const parsed = webSearchToolSchema.safeParse(tools[index]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = [`tools[${index}]`, ...(issue?.path ?? []).map(String)].join('.');
    throw new InvalidRequestError(`Invalid value for '${param}': ${issue?.message ?? 'invalid value'}.`, { param });
  }
  const tool = parsed.data;
  const maxUses = tool.max_uses ?? defaultMaxSearches;
  if (maxUses > maxSearchesLimit) {
    throw new InvalidRequestError(
      `tools[${index}].max_uses may be at most ${maxSearchesLimit} here: one credit hold covers every search of a message.`,
      { param: `tools[${index}].max_uses`, code: 'integer_above_max_value' },
    );
  }
  const allowed = toDomains(tool.allowed_domains);
  const blocked = toDomains(tool.blocked_domains);
  if (allowed && blocked) {
    throw new InvalidRequestError('allowed_domains and blocked_domains cannot be used together.', {
      param: `tools[${index}].blocked_domains`,
    });
  }
  const choice = request.tool_choice;
  return {
    settings: {
      ...contextSizes.medium,
      allowedDomains: allowed,
      blockedDomains: blocked,
      // The source URLs of each search make up its `web_search_tool_result` block.
      isSourcesIncluded: true,
      maxSearches: maxUses,
      vendorTool: {},
    },
    isForced: choice?.type === 'tool' && choice.name === tool.name,
  };
}

function toDomains(list: string[] | null | undefined): string[] | undefined {
  const domains = (list ?? []).map((domain) => domain.toLowerCase());
  return domains.length > 0 ? domains : undefined;
}
