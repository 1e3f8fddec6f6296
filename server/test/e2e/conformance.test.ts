import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import {
  runAiSdkErrorScenarios,
  runAiSdkModelScenarios,
  createGatewayProvider,
} from '../support/conformance/ai-sdk-scenarios.ts';
import { runAnthropicErrorScenarios, runAnthropicModelScenarios } from '../support/conformance/anthropic-scenarios.ts';
import { checkExchanges } from '../support/conformance/check-exchanges.ts';
import { conformanceModels } from '../support/conformance/conformance-models.ts';
import { buildGoPart, runGoPart } from '../support/conformance/go-part.ts';
import {
  createGatewayChatModel,
  runLangChainErrorScenarios,
  runLangChainModelScenarios,
} from '../support/conformance/langchain-scenarios.ts';
import { runOpenAiNodeResponsesScenarios } from '../support/conformance/openai-node-responses-scenarios.ts';
import {
  runOpenAiNodeErrorScenarios,
  runOpenAiNodeModelScenarios,
} from '../support/conformance/openai-node-scenarios.ts';
import { preparePythonEnvironment, runPythonPart } from '../support/conformance/python-part.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/conformance/recording-proxy.ts';
import { loadOpenApiSchemaValidator, type OpenApiSchemaValidator } from '../support/openapi-schema-validator.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import {
  startSearchSimulator,
  type RunningSearchSimulator,
} from '../../../simulators/search/start-search-simulator.ts';

/** Per model: text, stream, tool call + answer, streamed tool call + answer, json_schema; image where supported. */
const expectedScenarioCount =
  conformanceModels.length * 5 + conformanceModels.filter((model) => model.vision).length + 6;
/** Per model, the Responses API: text with instructions, a function round trip, web search whole and streamed. */
const expectedPythonScenarioCount = expectedScenarioCount + conformanceModels.length * 4;
/** Installing the Python SDK or compiling the Go SDK on a machine without caches takes a few minutes on 2 cores. */
const setupTimeoutMs = 600_000;

/**
 * The conformance suite (docs/conformance.md): one sandbox gateway; each client reaches it through its own recording
 * proxy, so that every body and stream chunk the gateway sent is checked against the OpenAI OpenAPI schemas. The
 * clients run side by side; each one's scenarios run in order.
 */
describe('conformance: official SDKs and frameworks against one sandbox gateway', { concurrency: true }, () => {
  let gateway: TestGateway;
  let search: RunningSearchSimulator;
  let validator: OpenApiSchemaValidator;
  const proxies: RecordingProxy[] = [];

  /** A client's own proxy and keys: a funded key, an empty one, and one limited to 2 requests a minute. */
  const newClientSetup = async () => {
    const proxy = await startRecordingProxy(gateway.url);
    proxies.push(proxy);
    const funded = await gateway.createUserWithKey({ balanceMicros: 100_000_000 });
    const empty = await gateway.createUserWithKey({ balanceMicros: 0 });
    const limited = await gateway.createUserWithKey({ balanceMicros: 100_000_000, key: { requestsPerMinute: 2 } });
    return { proxy, baseURL: `${proxy.url}/v1`, key: funded.key, emptyKey: empty.key, limitedKey: limited.key };
  };
  type ClientSetup = Awaited<ReturnType<typeof newClientSetup>>;

  /** What the Python and Go parts read from their environment. */
  const environmentFor = (setup: ClientSetup): Record<string, string> => ({
    GATEWAY_BASE_URL: setup.baseURL,
    GATEWAY_API_KEY: setup.key,
    GATEWAY_EMPTY_KEY: setup.emptyKey,
    GATEWAY_LIMITED_KEY: setup.limitedKey,
    CONFORMANCE_MODELS: JSON.stringify(conformanceModels),
    SEARCH_SIMULATOR_URL: search.url,
  });

  /** What one client received: every body and chunk valid, and every kind of answer and error present. */
  const assertSchemaConformant = (
    setup: ClientSetup,
    moreStatuses: readonly number[] = [],
    options: { hasResponses: boolean } = { hasResponses: false },
  ) => {
    const report = checkExchanges(validator, setup.proxy.takeExchanges());
    assert.deepEqual(report.problems, [], 'every body and chunk matches the OpenAI schemas');
    assert.ok((report.checked.CreateChatCompletionResponse ?? 0) >= conformanceModels.length * 3, 'completions seen');
    assert.ok((report.checked.CreateChatCompletionStreamResponse ?? 0) > conformanceModels.length * 3, 'chunks seen');
    if (options.hasResponses) {
      assert.ok((report.checked.Response ?? 0) >= conformanceModels.length * 4, 'Response objects seen');
      assert.ok((report.checked.ResponseStreamEvent ?? 0) > conformanceModels.length * 10, 'Responses events seen');
    }
    for (const status of [401, 404, 400, 402, 429, ...moreStatuses]) {
      assert.ok(report.statuses.includes(status), `${status} seen`);
    }
  };
  const schemaTestName = 'every response body and stream chunk matches the OpenAI OpenAPI schemas';

  before(async () => {
    validator = loadOpenApiSchemaValidator();
    // A search simulator of the test's own, so that clients can check citations against the engine's results.
    search = await startSearchSimulator();
    gateway = await startTestGateway({
      environment: { SEARCH_ENGINE: 'searxng', SEARCH_BASE_URL: `${search.url}/searxng` },
    });
  });
  after(async () => {
    for (const proxy of proxies) await proxy.close();
    await gateway.close();
    await search.close();
  });

  describe('official OpenAI SDK for Node', { concurrency: 1 }, () => {
    let setup: ClientSetup;
    let client: OpenAI;
    before(async () => {
      setup = await newClientSetup();
      client = new OpenAI({ apiKey: setup.key, baseURL: setup.baseURL, maxRetries: 0 });
    });
    for (const model of conformanceModels) {
      test(`${model.family} ${model.id}: text, stream, tool calls and answers, json_schema, image`, async () => {
        await runOpenAiNodeModelScenarios(client, model);
      });
    }
    for (const model of conformanceModels) {
      test(`${model.family} ${model.id}: Responses API text, function round trip, web search whole and streamed`, async () => {
        await runOpenAiNodeResponsesScenarios(client, model, search.url);
      });
    }
    test('401, 404, 400, 402, 429, 502 and a mid-stream error raise the SDK error classes; models read', async () => {
      await runOpenAiNodeErrorScenarios(setup);
    });
    test(schemaTestName, () => assertSchemaConformant(setup, [502], { hasResponses: true }));
  });

  describe('official OpenAI SDK for Python (conformance/python)', { concurrency: 1 }, () => {
    let setup: ClientSetup;
    let python: string;
    before(
      async () => {
        setup = await newClientSetup();
        python = await preparePythonEnvironment();
      },
      { timeout: setupTimeoutMs },
    );
    test('every model scenario and error case passes under unittest', async () => {
      const run = await runPythonPart(python, environmentFor(setup));
      assert.ok(run.passed, run.output);
      assert.equal(run.testsRun, expectedPythonScenarioCount, `every scenario ran:\n${run.output}`);
    });
    test(schemaTestName, () => assertSchemaConformant(setup, [], { hasResponses: true }));
  });

  describe('official OpenAI SDK for Go (conformance/go)', { concurrency: 1 }, () => {
    let setup: ClientSetup;
    let binary: string;
    before(
      async () => {
        setup = await newClientSetup();
        binary = await buildGoPart();
      },
      { timeout: setupTimeoutMs },
    );
    test('every model scenario and error case passes under go test', async () => {
      const run = await runGoPart(binary, environmentFor(setup));
      assert.ok(run.passed, run.output);
      assert.equal(run.scenariosPassed, expectedScenarioCount, `every scenario ran:\n${run.output}`);
    });
    test(schemaTestName, () => assertSchemaConformant(setup));
  });

  describe('Vercel AI SDK through @ai-sdk/openai-compatible', { concurrency: 1 }, () => {
    let setup: ClientSetup;
    before(async () => {
      setup = await newClientSetup();
    });
    for (const model of conformanceModels) {
      test(`${model.family} ${model.id}: text, stream, tool loops, structured output, image`, async () => {
        await runAiSdkModelScenarios(createGatewayProvider(setup.baseURL, setup.key), model);
      });
    }
    test('401, 404, 400, 402 and 429 reach the app as APICallError with the status', async () => {
      await runAiSdkErrorScenarios(setup);
    });
    test(schemaTestName, () => assertSchemaConformant(setup));
  });

  describe('LangChain JS through @langchain/openai', { concurrency: 1 }, () => {
    let setup: ClientSetup;
    before(async () => {
      setup = await newClientSetup();
    });
    for (const model of conformanceModels) {
      test(`${model.family} ${model.id}: text, stream, tool calls and answers, structured output, image`, async () => {
        await runLangChainModelScenarios(
          createGatewayChatModel({ baseURL: setup.baseURL, apiKey: setup.key, model: model.id }),
          model,
        );
      });
    }
    test('401, 404, 400, 402 and 429 reach the app with their status', async () => {
      await runLangChainErrorScenarios(setup);
    });
    test(schemaTestName, () => assertSchemaConformant(setup));
  });

  describe('Anthropic SDK against /v1/messages', { concurrency: 1 }, () => {
    let setup: ClientSetup;
    let client: Anthropic;
    before(async () => {
      setup = await newClientSetup();
      client = new Anthropic({ apiKey: setup.key, baseURL: setup.proxy.url, maxRetries: 0, logLevel: 'off' });
    });
    for (const model of conformanceModels) {
      test(`${model.family} ${model.id}: text, stream, tool use and results, JSON output, image`, async () => {
        await runAnthropicModelScenarios(client, model);
      });
    }
    test('401, 404, 400, 402 and 429 raise the Anthropic SDK error classes', async () => {
      await runAnthropicErrorScenarios({ ...setup, baseURL: setup.proxy.url });
    });
    test("every answer has Anthropic's envelope: a message, an error, or named events", () => {
      const report = checkExchanges(validator, setup.proxy.takeExchanges());
      assert.deepEqual(report.problems, []);
      assert.ok(report.anthropicMessages >= conformanceModels.length * 6, 'messages seen');
      for (const status of [401, 404, 400, 402, 429]) assert.ok(report.statuses.includes(status), `${status} seen`);
    });
  });
});
