import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** A GPT (OpenAI's own Responses API behind), a Claude, a Gemini and a DeepSeek model. */
const familyModels = ['gpt-5', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'deepseek-chat'];

/** Tools the way Codex CLI sends them: an MCP server's tools in a namespace group, apply_patch as a custom tool. */
const codexTools = [
  {
    type: 'namespace',
    name: 'mcp__docs__',
    description: 'Tools of the docs MCP server.',
    tools: [
      {
        type: 'function',
        name: 'search_docs',
        description: 'Search the documentation',
        strict: false,
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
    ],
  },
  {
    type: 'custom',
    name: 'apply_patch',
    description: 'Edit files with a patch.',
    format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' },
  },
  {
    type: 'function',
    name: 'shell',
    description: 'Run a command',
    strict: false,
    parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } },
  },
] as unknown as OpenAI.Responses.Tool[];

type CallItem = { type: string; call_id: string; name: string; namespace?: string; arguments?: string; input?: string };

/** Issue #18: Codex CLI's default request shape on /v1/responses, for every family. */
describe('/v1/responses takes the tool groups and custom tools Codex sends', () => {
  let gateway: TestGateway;
  let client: OpenAI;

  before(async () => {
    gateway = await startTestGateway();
    const user = await gateway.createUserWithKey({ balanceMicros: 50_000_000 });
    client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(() => gateway.close());

  test('a namespaced function is called with its namespace, and its output continues the conversation', async () => {
    for (const model of familyModels) {
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Find the install docs.' }];
      const first = await client.responses.create({ model, input, tools: codexTools, tool_choice: 'required' });
      const call = first.output.find((item) => item.type === 'function_call') as CallItem | undefined;
      assert.ok(call, `${model} called a tool: ${JSON.stringify(first.output)}`);
      assert.equal(call.name, 'search_docs', model);
      assert.equal(call.namespace, 'mcp__docs__', model);
      const second = await client.responses.create({
        model,
        tools: codexTools,
        input: [
          ...input,
          ...(first.output as OpenAI.Responses.ResponseInputItem[]),
          { type: 'function_call_output', call_id: call.call_id, output: 'Run npm install.' },
        ],
      });
      assert.equal(second.status, 'completed', model);
      assert.ok(second.output_text.length > 0, `${model} answered after the tool result`);
    }
  });

  test('a custom tool is called with raw input, streamed as custom_tool_call_input events, and sent back', async () => {
    for (const model of familyModels) {
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Fix the typo.' }];
      const stream = await client.responses.create({
        model,
        input,
        tools: codexTools,
        tool_choice: { type: 'custom', name: 'apply_patch' },
        stream: true,
      });
      const types: string[] = [];
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.completed') completed = event.response;
      }
      assert.ok(completed, model);
      const call = completed.output.find((item) => item.type === 'custom_tool_call') as CallItem | undefined;
      assert.ok(call, `${model}: ${JSON.stringify(completed.output)}`);
      assert.equal(call.name, 'apply_patch');
      assert.equal(typeof call.input, 'string');
      assert.ok(types.includes('response.custom_tool_call_input.done'), `${model}: ${types.join(' ')}`);
      assert.ok(!types.includes('response.function_call_arguments.delta'), model);
      const second = await client.responses.create({
        model,
        tools: codexTools,
        input: [
          ...input,
          ...(completed.output as OpenAI.Responses.ResponseInputItem[]),
          { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Patch applied.' },
        ],
      });
      assert.equal(second.status, 'completed', model);
      assert.ok(second.output_text.length > 0, model);
    }
  });

  test('a namespace inside a namespace and tool types the gateway cannot run are 400s naming them', async () => {
    const cases: Array<[unknown, string]> = [
      [
        [{ type: 'namespace', name: 'a', description: 'x', tools: [{ type: 'namespace', name: 'b', tools: [] }] }],
        'tools[0].tools[0].type',
      ],
      [[{ type: 'image_generation' }], 'tools[0].type'],
    ];
    for (const [tools, param] of cases) {
      await assert.rejects(
        client.responses.create({ model: 'gpt-5', input: 'x', tools: tools as OpenAI.Responses.Tool[] }),
        (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === param,
      );
    }
  });
});
