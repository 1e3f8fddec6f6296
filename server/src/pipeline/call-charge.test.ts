import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { Dispatcher } from 'undici';
import { createMessageStreamConverter } from '../anthropic-api/create-message-stream-converter.ts';
import { convertMessagesRequest } from '../anthropic-api/convert-messages-request.ts';
import { messagesRequestSchema } from '../anthropic-api/messages-request.ts';
import type { AppDeps } from '../app.ts';
import { sumLedgerAccount, userLedgerAccount } from '../db/ledger.ts';
import { findUsageRecord } from '../db/usage-records.ts';
import { runImageGeneration } from '../images/run-image-generation.ts';
import { systemClock } from '../lib/clock.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import type { ResponseSink } from '../responses/response-sink.ts';
import { runResponse } from '../responses/run-response.ts';
import { createRouting } from '../routing/create-routing.ts';
import { assertLedgerBalanced } from '../../test/support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../../test/support/start-test-gateway.ts';
import { authenticate, type Caller } from './authenticate.ts';
import type { ChatSink } from './chat-sink.ts';
import { runChatCompletion } from './run-chat-completion.ts';

/** The throw a scenario injects; the call must end without a hold whichever stage it hits. */
class InjectedFault extends Error {}

/** A dispatcher that throws on every request: a fault inside the upstream call itself. */
class ThrowingDispatcher extends Dispatcher {
  override dispatch(): boolean {
    throw new InjectedFault('injected inside the upstream call');
  }
}

/** Where a scenario throws: a sink method (on its `atCall`-th call) or a dependency of the pipeline. */
type SinkFault = { method: string; atCall: number };
type DepsFault = 'before upstream' | 'inside upstream' | 'settlement';

let gateway: TestGateway;
let caller: Caller;
let userId: string;
let requestCount = 0;

before(async () => {
  gateway = await startTestGateway();
  const user = await gateway.createUserWithKey({ balanceMicros: 50_000_000 });
  userId = user.userId;
  caller = await authenticate(gateway.gateway.deps, { authorization: `Bearer ${user.key}` });
});
after(() => gateway.close());
afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

const nextRequestId = () => `req_fault${(requestCount += 1)}`;

/** The gateway's dependencies, with one stage made to throw. */
function depsWith(fault: DepsFault | undefined): AppDeps {
  const deps = gateway.gateway.deps;
  if (fault === undefined) return deps;
  if (fault === 'settlement') {
    const submit = () => Promise.reject(new InjectedFault('injected in settlement'));
    return { ...deps, settlements: { ...deps.settlements, submit } };
  }
  // A routing of its own, so the injected failures never count against the shared routes' health.
  const routing = createRouting({ clock: systemClock, random: Math.random, settings: gateway.config.routing });
  if (fault === 'before upstream') {
    const order = () => {
      throw new InjectedFault('injected before the upstream call');
    };
    return { ...deps, upstream: { ...deps.upstream, routing: { ...routing, order } } };
  }
  const dispatcher = new ThrowingDispatcher();
  return { ...deps, upstream: { ...deps.upstream, routing, dispatcher, dispatcherFor: () => dispatcher } };
}

/** Calls `method` of the sink, throwing on the `atCall`-th call when it is the faulty one. */
function createFaultCounter(fault: SinkFault | undefined) {
  const calls = new Map<string, number>();
  return (method: string) => {
    const count = (calls.get(method) ?? 0) + 1;
    calls.set(method, count);
    if (fault?.method === method && fault.atCall === count) throw new InjectedFault(`injected in ${method}`);
  };
}

/** A chat sink that records nothing of the text and throws where the scenario says; `convert` plays Messages' role. */
function createFaultyChatSink(fault: SinkFault | undefined, convert?: ReturnType<typeof createMessageStreamConverter>) {
  const hit = createFaultCounter(fault);
  const sink: ChatSink = {
    signal: new AbortController().signal,
    setHeaders: () => hit('setHeaders'),
    sendCompletion: () => hit('sendCompletion'),
    awaitStream: () => {
      hit('awaitStream');
      return () => undefined;
    },
    startStream: () => {
      hit('startStream');
      convert?.start();
    },
    sendChunk: (chunk) => {
      hit('sendChunk');
      convert?.convertChunk(chunk);
      return true;
    },
    waitForDrain: async () => undefined,
    sendStreamError: () => hit('sendStreamError'),
    endStream: () => hit('endStream'),
  };
  return sink;
}

function createFaultyResponseSink(fault: SinkFault | undefined): ResponseSink {
  const hit = createFaultCounter(fault);
  let isStreamOpen = false;
  return {
    signal: new AbortController().signal,
    setHeaders: () => hit('setHeaders'),
    sendResponse: () => hit('sendResponse'),
    awaitStream: () => {
      hit('awaitStream');
      return () => undefined;
    },
    sendEvent: () => {
      hit('sendEvent');
      isStreamOpen = true;
      return true;
    },
    waitForDrain: async () => undefined,
    get isStreamOpen() {
      return isStreamOpen;
    },
    endStream: () => hit('endStream'),
  };
}

/**
 * Runs one call (which may throw: the route handler answers that), then checks that no hold survives: once the
 * settled charges are written, what the account can spend equals its ledger balance (nothing held, nothing pending).
 */
async function assertNoHoldSurvives(requestId: string, call: () => Promise<unknown>): Promise<string | undefined> {
  const deps = gateway.gateway.deps;
  const failure = await call().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (failure !== undefined && !(failure instanceof InjectedFault)) {
    assert.ok(failure instanceof Error, 'the call fails with an error');
  }
  await deps.settlements.flush();
  const balance = await sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
  assert.equal(await deps.creditHolds.availableMicros(userId), balance, 'no hold or pending charge survives the call');
  return (await findUsageRecord(gateway.gateway.database.db, requestId))?.status;
}

const streamedChat = {
  model: 'gpt-4o',
  stream: true,
  messages: [{ role: 'user', content: 'Tell me a story [sim:words=40]' }],
};

const sinkFaults: readonly { stage: string; fault: SinkFault; status: string | undefined }[] = [
  { stage: 'after the hold', fault: { method: 'setHeaders', atCall: 1 }, status: 'failed' },
  {
    stage: 'before the upstream call (awaiting the stream)',
    fault: { method: 'awaitStream', atCall: 1 },
    status: 'failed',
  },
  { stage: 'inside sink.startStream', fault: { method: 'startStream', atCall: 1 }, status: 'failed' },
  { stage: 'mid-relay', fault: { method: 'sendChunk', atCall: 3 }, status: 'interrupted' },
];

const depsFaultTitles: Record<DepsFault, string> = {
  'before upstream': 'before the upstream call (choosing the route order)',
  'inside upstream': 'inside the upstream call (its HTTP dispatcher)',
  settlement: 'in settlement (the journal write)',
};

const depsFaults: readonly { stage: DepsFault; status: string | undefined }[] = [
  { stage: 'before upstream', status: 'failed' },
  { stage: 'inside upstream', status: 'failed' },
  // The settlement never reached the journal: nothing is charged and no usage row is written.
  { stage: 'settlement', status: undefined },
];

for (const endpoint of ['chat', 'messages'] as const) {
  /** `/v1/messages` runs the chat pipeline behind Anthropic's converters (`http/v1/messages.ts`). */
  const runChat = (deps: AppDeps, sinkFault: SinkFault | undefined, requestId: string) => {
    if (endpoint === 'chat') {
      const sink = createFaultyChatSink(sinkFault);
      return runChatCompletion(deps, { caller, body: streamedChat, requestId, sink });
    }
    const messages = parseWireRequest(messagesRequestSchema, { ...streamedChat, max_tokens: 200 });
    const convert = createMessageStreamConverter({ id: `msg_${requestId}`, model: 'gpt-4o', estimatedInputTokens: 10 });
    const sink = createFaultyChatSink(sinkFault, convert);
    return runChatCompletion(deps, { caller, body: convertMessagesRequest(messages), requestId, sink });
  };

  describe(`${endpoint}: a throw at any stage after the hold leaves no hold`, () => {
    for (const { stage, fault, status } of sinkFaults) {
      test(stage, async () => {
        const requestId = nextRequestId();
        assert.equal(
          await assertNoHoldSurvives(requestId, () => runChat(depsWith(undefined), fault, requestId)),
          status,
        );
      });
    }
    for (const { stage, status } of depsFaults) {
      test(depsFaultTitles[stage], async () => {
        const requestId = nextRequestId();
        assert.equal(
          await assertNoHoldSurvives(requestId, () => runChat(depsWith(stage), undefined, requestId)),
          status,
        );
      });
    }
  });
}

describe('responses: a throw at any stage after the hold leaves no hold', () => {
  const body = { model: 'gpt-4o', stream: true, input: 'Tell me a story [sim:words=40]' };
  const run = (deps: AppDeps, fault: SinkFault | undefined, requestId: string) =>
    runResponse(deps, { caller, body, requestId, sink: createFaultyResponseSink(fault) });
  const responseSinkFaults: readonly { stage: string; fault: SinkFault }[] = [
    { stage: 'after the hold', fault: { method: 'setHeaders', atCall: 1 } },
    { stage: 'before the upstream call (awaiting the stream)', fault: { method: 'awaitStream', atCall: 1 } },
    { stage: 'when the stream opens', fault: { method: 'sendEvent', atCall: 1 } },
    { stage: 'mid-relay', fault: { method: 'sendEvent', atCall: 6 } },
  ];
  for (const { stage, fault } of responseSinkFaults) {
    test(stage, async () => {
      const requestId = nextRequestId();
      assert.notEqual(
        await assertNoHoldSurvives(requestId, () => run(depsWith(undefined), fault, requestId)),
        'completed',
      );
    });
  }
  for (const { stage, status } of depsFaults) {
    test(depsFaultTitles[stage], async () => {
      const requestId = nextRequestId();
      assert.equal(await assertNoHoldSurvives(requestId, () => run(depsWith(stage), undefined, requestId)), status);
    });
  }
});

describe('images: a throw at any stage after the hold leaves no hold', () => {
  const body = { model: 'gpt-image-1', prompt: 'a red fox', size: '1024x1024' };
  const run = (deps: AppDeps, requestId: string, onServed?: () => void) =>
    runImageGeneration(deps, {
      caller,
      body,
      requestId,
      signal: new AbortController().signal,
      ...(onServed ? { onServed } : {}),
    });

  test('after the upstream answered, before settlement', async () => {
    const requestId = nextRequestId();
    const onServed = () => {
      throw new InjectedFault('injected after the upstream answered');
    };
    assert.equal(await assertNoHoldSurvives(requestId, () => run(depsWith(undefined), requestId, onServed)), 'failed');
  });
  for (const { stage, status } of depsFaults) {
    test(depsFaultTitles[stage], async () => {
      const requestId = nextRequestId();
      assert.equal(await assertNoHoldSurvives(requestId, () => run(depsWith(stage), requestId)), status);
    });
  }
  test('a call without a fault is charged, so the checks above see a real hold come and go', async () => {
    const requestId = nextRequestId();
    const before = await sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
    assert.equal(await assertNoHoldSurvives(requestId, () => run(depsWith(undefined), requestId)), 'completed');
    const afterCall = await sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
    assert.ok(afterCall < before, 'the image was charged');
  });
});
