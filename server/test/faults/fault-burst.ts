import { readStream } from '../support/gateway-process.ts';
import type { FaultServices } from './fault-cluster.ts';

export type FaultAccount = { email: string; key: string };

/** What the client saw of one call: its request id (from the answer's id) and `usage.cost` when it completed. */
export type CallOutcome = {
  node: string;
  isStream: boolean;
  status: number | 'connection_error';
  requestId: string | undefined;
  costUsd: number | undefined;
  /** Content chunks received on a stream that ended without its usage chunk (the simulator sends one word each). */
  deliveredChunks: number;
};

/** Streams that have received content and not ended yet, by node name: a scenario waits for one before its fault. */
export type OpenStreams = Map<string, number>;

export const accountPassword = 'fault suite password';
/** The model every call asks for; the suite's one route sends it to the simulator. */
const model = 'gpt-4o-mini';

/** Accounts of a scenario, each with a key and `balanceUsd`, created through the operator CLI. */
export async function createFaultAccounts(
  services: FaultServices,
  input: { prefix: string; count: number; balanceUsd: string },
): Promise<FaultAccount[]> {
  return Promise.all(
    Array.from({ length: input.count }, async (_, index) => {
      const email = `${input.prefix}-${index}@example.com`;
      const user = await services.cli([
        'user',
        'create',
        '--email',
        email,
        '--password',
        accountPassword,
        '--balance-usd',
        input.balanceUsd,
      ]);
      if (user.exitCode !== 0) throw new Error(`user create failed: ${user.stderr}`);
      const created = await services.cli(['key', 'create', '--email', email]);
      const key = /sk-[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
      if (!key) throw new Error(`key create printed no key: ${created.stdout}${created.stderr}`);
      return { email, key };
    }),
  );
}

/** The one route of the suite: the model, through the OpenAI adapter, to the simulator process. */
export async function addSimulatorRoute(services: FaultServices): Promise<void> {
  const added = await services.cli([
    'route',
    'add',
    '--model',
    model,
    '--provider',
    'openai',
    '--base-url',
    `${services.simulatorUrl}/openai/v1`,
    '--api-key',
    'sk-fault-suite-upstream',
    '--upstream-model',
    model,
    '--input-cost-usd',
    '0.15',
    '--output-cost-usd',
    '0.6',
  ]);
  if (added.exitCode !== 0) throw new Error(`route add failed: ${added.stderr}`);
}

function lastUsageChunk(text: string): { id: string; usage: { cost: number } } | undefined {
  const data = text
    .split('\n\n')
    .map((event) => event.replace(/^data: /, ''))
    .filter((event) => event.includes('"usage"') && event.includes('"cost"'))
    .at(-1);
  return data === undefined ? undefined : (JSON.parse(data) as { id: string; usage: { cost: number } });
}

async function callOnce(input: {
  url: string;
  node: string;
  key: string;
  index: number;
  openStreams: OpenStreams;
  /** A longer answer than the burst's 40 words (always streamed). */
  words?: number;
}): Promise<CallOutcome> {
  // 4 is prime to the 3 nodes and 5 accounts of a scenario, so every node and account sees both kinds.
  const isStream = input.words !== undefined || input.index % 4 !== 0;
  const words = input.words ?? 40;
  const outcome: CallOutcome = {
    node: input.node,
    isStream,
    status: 'connection_error',
    requestId: undefined,
    costUsd: undefined,
    deliveredChunks: 0,
  };
  try {
    const response = await fetch(`${input.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${input.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        stream: isStream,
        ...(isStream ? { stream_options: { include_usage: true } } : {}),
        max_completion_tokens: Math.max(300, words * 2),
        messages: [{ role: 'user', content: `Fault burst call ${input.index} [sim:words=${words}]` }],
      }),
    });
    outcome.status = response.status;
    if (!isStream || response.status !== 200) {
      const body = (await response.json()) as { id?: string; usage?: { cost: number } };
      outcome.requestId = body.id?.replace(/^chatcmpl-/, '');
      outcome.costUsd = body.usage?.cost;
      return outcome;
    }
    let isOpen = false;
    const text = await readStream(response, (soFar) => {
      if (isOpen || !soFar.includes('"content":"')) return;
      isOpen = true;
      input.openStreams.set(input.node, (input.openStreams.get(input.node) ?? 0) + 1);
    });
    if (isOpen) input.openStreams.set(input.node, (input.openStreams.get(input.node) ?? 1) - 1);
    outcome.requestId = /"id":"chatcmpl-([^"]+)"/.exec(text)?.[1];
    outcome.costUsd = lastUsageChunk(text)?.usage.cost;
    if (outcome.costUsd === undefined) outcome.deliveredChunks = (text.match(/"content":"/g) ?? []).length;
  } catch {
    // Refused or cut connections are part of the fault; the outcome says what arrived.
  }
  return outcome;
}

/**
 * `count` calls, a quarter of them non-streamed, spread round-robin over the nodes and the accounts and started
 * `spacingMs` apart, so a fault the scenario injects meanwhile lands mid-burst.
 */
export async function runBurst(input: {
  nodes: ReadonlyArray<{ name: string; url: string }>;
  accounts: readonly FaultAccount[];
  count: number;
  spacingMs: number;
  openStreams: OpenStreams;
}): Promise<CallOutcome[]> {
  return Promise.all(
    Array.from({ length: input.count }, async (_, index) => {
      await new Promise((resolve) => setTimeout(resolve, index * input.spacingMs));
      const node = input.nodes[index % input.nodes.length]!;
      const account = input.accounts[index % input.accounts.length]!;
      return callOnce({ url: node.url, node: node.name, key: account.key, index, openStreams: input.openStreams });
    }),
  );
}

/**
 * One stream of `words` words (the simulator sends one every 40 ms) on a node; resolves, once it has delivered
 * content, with the promise of its outcome.
 */
export async function startLongStream(input: {
  node: { name: string; url: string };
  account: FaultAccount;
  words: number;
}): Promise<{ outcome: Promise<CallOutcome> }> {
  const openStreams: OpenStreams = new Map();
  const { node, account, words } = input;
  const outcome = callOnce({ url: node.url, node: node.name, key: account.key, index: -1, openStreams, words });
  for (let waited = 0; (openStreams.get(node.name) ?? 0) === 0 && waited < 20_000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { outcome };
}
