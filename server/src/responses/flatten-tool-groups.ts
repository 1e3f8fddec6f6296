import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ResponsesCustomTool, ResponsesFunctionTool, ResponsesTool } from './responses-request.ts';

/** What a flattened tool was in the request, so that the model's call of it is answered in the client's terms. */
export type ToolOrigin = { name: string; namespace: string | undefined; kind: 'function' | 'custom' };

/** The chat function's name for each tool that is not a plain top-level function, by its flat name. */
export type ToolOrigins = ReadonlyMap<string, ToolOrigin>;

const maxFunctionNameLength = 64;

/**
 * The chat function name of a tool: its own name at the top level, `<namespace>__<name>` inside a namespace (a
 * namespace already ending in `_` is joined as it is), characters vendors refuse in a function name replaced by `_`,
 * and a name over 64 characters cut with a hash of the whole, so two tools never share a name by accident.
 */
export function flatToolName(namespace: string | null | undefined, name: string): string {
  if (namespace === undefined || namespace === null) return name;
  const joined = `${namespace}${namespace.endsWith('_') ? '' : '__'}${name}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (joined.length <= maxFunctionNameLength) return joined;
  const hash = createHash('sha256').update(`${namespace}\u0000${name}`).digest('hex').slice(0, 8);
  return `${joined.slice(0, maxFunctionNameLength - 9)}_${hash}`;
}

/**
 * Responses tools → function tools every vendor takes (pure). A `namespace` group's tools become top-level functions
 * with flat names (`flatToolName`); a custom (freeform) tool becomes a function of one string argument, `input`, its
 * grammar given to the model in the description. Web search tools pass through. Two tools with one flat name → 400.
 * @see https://platform.openai.com/docs/guides/function-calling#custom-tools
 */
export function flattenToolGroups(tools: readonly ResponsesTool[]): {
  tools: Array<Exclude<ResponsesTool, { type: 'namespace' | 'custom' }>>;
  origins: ToolOrigins;
} {
  const flat: Array<Exclude<ResponsesTool, { type: 'namespace' | 'custom' }>> = [];
  const origins = new Map<string, ToolOrigin>();
  const add = (tool: ResponsesFunctionTool | ResponsesCustomTool, namespace: string | undefined, param: string) => {
    const name = flatToolName(namespace, tool.name);
    if (flat.some((other) => other.type === 'function' && other.name === name)) {
      throw new InvalidRequestError(`Two tools are named '${name}' once namespaces are flattened; rename one.`, {
        param: `${param}.name`,
      });
    }
    flat.push(tool.type === 'function' ? { ...tool, name } : convertCustomTool(tool, name));
    if (namespace !== undefined || tool.type === 'custom') {
      origins.set(name, { name: tool.name, namespace, kind: tool.type });
    }
  };
  tools.forEach((tool, index) => {
    if (tool.type === 'namespace') {
      tool.tools.forEach((inner, innerIndex) => add(inner, tool.name, `tools[${index}].tools[${innerIndex}]`));
    } else if (tool.type === 'function' || tool.type === 'custom') add(tool, undefined, `tools[${index}]`);
    else flat.push(tool);
  });
  return { tools: flat, origins };
}

function convertCustomTool(tool: ResponsesCustomTool, name: string): ResponsesFunctionTool {
  const format = tool.format?.type === 'grammar' ? tool.format : undefined;
  const inputDescription = format
    ? `The tool's raw input, which must follow this ${format.syntax} grammar:\n${format.definition}`
    : "The tool's raw input text.";
  return {
    type: 'function',
    name,
    ...(tool.description ? { description: tool.description } : {}),
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: inputDescription } },
      required: ['input'],
      additionalProperties: false,
    },
  };
}
