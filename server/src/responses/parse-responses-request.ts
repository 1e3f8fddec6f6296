import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import { convertResponsesRequest, type ResponsePlan } from './convert-responses-request.ts';
import { responsesRequestSchema, webSearchToolTypes } from './responses-request.ts';

const supportedToolTypes: readonly string[] = ['function', 'custom', 'namespace', ...webSearchToolTypes];
/** Inside a `namespace` group: what `NamespaceToolParam` allows. */
const namespaceToolTypes: readonly string[] = ['function', 'custom'];
const supportedItemTypes: readonly string[] = [
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
  'web_search_call',
  'item_reference',
];

/**
 * An untrusted `POST /v1/responses` body → the plan the orchestrator runs, or a 400 naming the field. Tool and item
 * types the gateway does not serve get their own message, since a schema error alone would not say why.
 */
export function parseResponsesRequest(body: unknown): ResponsePlan {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const fields = body as { tools?: unknown; input?: unknown };
    findUnsupportedType(fields.tools, { param: 'tools', supported: supportedToolTypes, noun: 'Tools' });
    findUnsupportedNamespaceTools(fields.tools);
    findUnsupportedType(fields.input, { param: 'input', supported: supportedItemTypes, noun: 'Input items' });
    refuseUnionMismatch(responsesRequestSchema.safeParse(body).error?.issues[0]);
  }
  return convertResponsesRequest(parseWireRequest(responsesRequestSchema, body));
}

type Issue = { code: string; path: PropertyKey[]; message: string; errors?: Issue[][] };

/**
 * `input` and a message's `content` are a string or a list: a schema error inside the list would only name the whole
 * field. The branch the value's own type chose names the exact part instead (`input[2].content[0].text`).
 */
function refuseUnionMismatch(issue: Issue | undefined): void {
  if (issue?.code !== 'invalid_union') return;
  const path = [...issue.path];
  let current: Issue = issue;
  for (;;) {
    const chosen = current.errors?.find(
      (branch) => !(branch[0]?.code === 'invalid_type' && branch[0].path.length === 0),
    );
    const next = chosen?.[0];
    if (current.code !== 'invalid_union' || next === undefined) break;
    path.push(...next.path);
    current = next;
  }
  const param = path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );
  const detail =
    current.code === 'invalid_union' && current.errors?.length ? 'must be a string or a list' : current.message;
  throw new InvalidRequestError(`Invalid value for '${param}': ${detail}.`, { param, code: 'invalid_value' });
}
/** A namespace holds function and custom tools only; another namespace inside one is refused by name. */
function findUnsupportedNamespaceTools(tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool: unknown, index) => {
    if (typeof tool !== 'object' || tool === null || !('type' in tool) || tool.type !== 'namespace') return;
    const inner: unknown = 'tools' in tool ? tool.tools : undefined;
    if (!Array.isArray(inner)) return;
    inner.forEach((entry: unknown, innerIndex) => {
      if (typeof entry === 'object' && entry !== null && 'type' in entry && entry.type === 'namespace') {
        throw new InvalidRequestError('A namespace cannot contain another namespace: nest tools one level deep.', {
          param: `tools[${index}].tools[${innerIndex}].type`,
          code: 'unsupported_value',
        });
      }
    });
    findUnsupportedType(inner, {
      param: `tools[${index}].tools`,
      supported: namespaceToolTypes,
      noun: 'Tools inside a namespace',
    });
  });
}

function findUnsupportedType(
  list: unknown,
  input: { param: string; supported: readonly string[]; noun: string },
): void {
  if (!Array.isArray(list)) return;
  list.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || !('type' in entry)) return;
    const type: unknown = entry.type;
    if (typeof type === 'string' && input.supported.includes(type)) return;
    throw new InvalidRequestError(
      `${input.noun} of type ${JSON.stringify(type)} are not supported. Supported: ${input.supported.join(', ')}.`,
      { param: `${input.param}[${index}].type`, code: 'unsupported_value' },
    );
  });
}
