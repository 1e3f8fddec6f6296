import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { preparePythonEnvironment } from '../support/conformance/python-part.ts';
import { runProcess } from '../support/conformance/run-process.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const clientsFolder = path.resolve(import.meta.dirname, '../../../conformance/clients');
/** Installing the clients (first run) and running them take minutes, above the suite's default test timeout. */
const clientTimeoutMs = 15 * 60_000;

/** A GPT, a Claude, a Gemini and a DeepSeek model; the embedding models of OpenAI, Google, Mistral and BAAI. */
const chatModels = ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'deepseek-chat'];
const embeddingModels = ['text-embedding-3-small', 'gemini-embedding-001', 'mistral-embed', 'bge-large-en-v1.5'];

/**
 * Issue #18: the OpenAI Agents SDK and pydantic-ai run an agent with a tool and structured output to the end;
 * LangChain's OpenAIEmbeddings and LiteLLM's embedding() get vectors (conformance/clients/test_python_clients.py).
 */
describe('Python agent and retrieval libraries against a sandbox gateway', () => {
  let gateway: TestGateway;
  let python: string;
  let key: string;

  before(
    async () => {
      python = await preparePythonEnvironment(clientsFolder);
      gateway = await startTestGateway();
      ({ key } = await gateway.createUserWithKey({ balanceMicros: 50_000_000 }));
    },
    { timeout: clientTimeoutMs },
  );
  after(() => gateway.close());

  test('every library finishes on every model', { timeout: clientTimeoutMs }, async () => {
    const run = await runProcess(python, ['test_python_clients.py'], {
      cwd: clientsFolder,
      env: {
        GATEWAY_BASE_URL: `${gateway.url}/v1`,
        GATEWAY_API_KEY: key,
        CHAT_MODELS: chatModels.join(','),
        EMBEDDING_MODELS: embeddingModels.join(','),
        // LiteLLM would fetch its model price map from GitHub on import; its bundled copy is used instead.
        LITELLM_LOCAL_MODEL_COST_MAP: 'True',
        // Nothing but the gateway is reachable (loopback only).
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: '127.0.0.1,localhost',
        OPENAI_AGENTS_DISABLE_TRACING: '1',
      },
    });
    assert.match(run.output, /^Ran 4 tests in /m, run.output);
    assert.match(run.output, /^OK$/m, run.output);
    assert.equal(run.exitCode, 0, run.output);
  });
});
