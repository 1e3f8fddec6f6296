import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  addSimulatorRoute,
  createFaultAccounts,
  runBurst,
  startLongStream,
  type CallOutcome,
  type OpenStreams,
} from './fault-burst.ts';
import {
  startFaultNode,
  startFaultNodes,
  startFaultServices,
  type FaultNodes,
  type FaultServices,
} from './fault-cluster.ts';
import { checkMoney, waitForHoldsReleased, type FaultReport } from './fault-money.ts';

/**
 * The fault-injection suite (docs/operations.md, "Fault suite"): three gateway processes on their own PostgreSQL and
 * Redis under a burst of streamed and non-streamed calls from five accounts whose balances cover only a few holds
 * each, one fault injected mid-burst, then the money rules checked against the shared database.
 */
let services: FaultServices;
before(async () => {
  services = await startFaultServices();
  await addSimulatorRoute(services);
});
after(async () => {
  await services.stop();
});

/** A balance that covers one hold of a call (300 output tokens) at a time, and about eight whole answers (40 words). */
const balanceUsd = '0.0003';
const burstCalls = 90;
const burstSpacingMs = 25;

/** Under load a scenario takes up to ~100 s (quiet: ~35 s); above the 120 s per-test default of scripts/test.ts. */
const scenarioTimeout = { timeout: 240_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one command (its words separated by spaces) and answers Redis's first reply bytes. */
function sendRedisCommand(port: number, command: string): Promise<string> {
  const words = command.split(' ');
  const request = `*${words.length}\r\n${words.map((word) => `$${word.length}\r\n${word}\r\n`).join('')}`;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.once('data', (data) => {
      socket.end();
      resolve(data.toString());
    });
    socket.once('error', reject);
  });
}

/** Runs one scenario: nodes, accounts, the burst with `inject` fired after `faultAtMs`, then the money check. */
async function runScenario(input: {
  name: string;
  faultAtMs: number;
  inject: (cluster: FaultNodes, openStreams: OpenStreams) => Promise<void>;
  /** Nodes the scenario kills on purpose; any other node that exits breaks the scenario. */
  killed?: readonly string[];
  /** A long stream (of its own account) on this node, open before the burst starts and through the fault. */
  longStreamOn?: number;
}): Promise<FaultReport> {
  const cluster = await startFaultNodes(services);
  try {
    const accounts = await createFaultAccounts(services, { prefix: input.name, count: 5, balanceUsd });
    const longStream = input.longStreamOn === undefined ? undefined : await startScenarioLongStream(cluster, input);
    const openStreams: OpenStreams = new Map();
    const burst = runBurst({
      nodes: cluster.nodes,
      accounts,
      count: burstCalls,
      spacingMs: burstSpacingMs,
      openStreams,
    });
    await sleep(input.faultAtMs);
    await input.inject(cluster, openStreams);
    const outcomes: CallOutcome[] = [...(await burst), ...(longStream ? [await longStream.outcome] : [])];
    if (longStream) accounts.push(longStream.account);
    const living = cluster.nodes.filter(
      (node) => node.process.child.exitCode === null && node.process.child.signalCode === null,
    );
    // With every node gone (a crash the scenario did not ask for), a replacement node reads the holds.
    const reader = living[0] ?? (await startFaultNode(services, 'replacement', services.redisPort));
    if (!living.includes(reader)) cluster.nodes.push(reader);
    const heldMicros = await waitForHoldsReleased(reader.url, accounts);
    const report = await checkMoney({ postgresUrl: services.postgresUrl, accounts, outcomes, heldMicros });
    for (const node of cluster.nodes.filter(
      (each) => !living.includes(each) && each !== reader && !input.killed?.includes(each.name),
    )) {
      const lines = node.process.output().trimEnd().split('\n');
      // The thrown error's own line says why; the stack after it does not.
      const lastLines = [
        ...lines.filter((line) => /^\S*Error|"level":(50|60)/.test(line)).slice(0, 3),
        ...lines.slice(-2),
      ].join('\n    ');
      report.broken.push(
        `${node.name} exited (${node.process.child.exitCode ?? node.process.child.signalCode}):\n    ${lastLines}`,
      );
    }
    const { broken, ...figures } = report;
    process.stdout.write(`fault suite, ${input.name}: ${JSON.stringify(figures)}\n`);
    for (const line of broken) process.stdout.write(`  broken: ${line}\n`);
    return report;
  } finally {
    await cluster.stop();
    // FAULT_LOGS_DIR keeps each node's log of the scenario, to read why a call failed.
    const logsDir = process.env['FAULT_LOGS_DIR'];
    if (logsDir) {
      for (const node of cluster.nodes) {
        writeFileSync(path.join(logsDir, `${input.name}-${node.name}.log`), node.process.output());
      }
    }
  }
}

/** 400 words at 40 ms each: about 16 s, longer than a lease, on an account that affords it. */
async function startScenarioLongStream(cluster: FaultNodes, input: { name: string; longStreamOn?: number }) {
  const [account] = await createFaultAccounts(services, { prefix: `${input.name}-long`, count: 1, balanceUsd: '0.01' });
  const node = cluster.nodes[input.longStreamOn ?? 0]!;
  const { outcome } = await startLongStream({ node, account: account!, words: 400 });
  // Its delivery checkpoint (written every 250 ms) reaches Redis before the fault.
  await sleep(500);
  return { account: account!, outcome };
}

function assertMoneyRules(report: FaultReport): void {
  assert.ok(report.completed > 0, 'some calls completed around the fault');
  assert.deepEqual(report.broken, [], 'no money rule broken');
  assert.equal(report.statuses['500'] ?? 0, 0, 'a known fault is never an internal error (500)');
  assert.equal(report.charged, report.completed, 'every completed call charged exactly once');
  assert.ok(report.lowestBalanceUsd >= 0, 'no balance below zero');
  assert.equal(report.heldUsd, 0, 'no hold outlives its lease');
}

test('one node kill -9ed mid-stream', scenarioTimeout, async () => {
  const report = await runScenario({
    name: 'kill-9',
    killed: ['node-2'],
    faultAtMs: 900,
    inject: async (cluster, openStreams) => {
      const victim = cluster.nodes[1]!;
      // Mid-stream: the node has a stream that has sent content and not ended.
      for (let waited = 0; (openStreams.get(victim.name) ?? 0) === 0 && waited < 20_000; waited += 10) await sleep(10);
      victim.process.child.kill('SIGKILL');
      await victim.process.processExited;
    },
  });
  assert.ok(report.cut > 0, 'the kill cut some calls');
  assert.ok(report.cutStreams > 0, 'the kill cut a stream that had delivered content');
  assertMoneyRules(report);
});

test('Redis flushed (FLUSHALL), then restarted empty, mid-burst', scenarioTimeout, async () => {
  const report = await runScenario({
    name: 'redis-flush',
    faultAtMs: 700,
    inject: async () => {
      assert.equal(await sendRedisCommand(services.redisPort, 'FLUSHALL'), '+OK\r\n');
      await sleep(600);
      await services.restartRedisEmpty();
    },
  });
  assertMoneyRules(report);
});

/**
 * Redis keeps its state but forgets every script while the nodes' connections stay open: each command sent by SHA in
 * flight is refused (`NOSCRIPT`) after commands sent later may have run, and is sent again with its text
 * (decision 1881).
 */
test('Redis’s script cache flushed (SCRIPT FLUSH) three times mid-burst', scenarioTimeout, async () => {
  const noScriptCount = async () => {
    const stats = await sendRedisCommand(services.redisPort, 'INFO errorstats');
    return Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(stats)?.[1] ?? 0);
  };
  let refusedBefore = 0;
  const report = await runScenario({
    name: 'script-flush',
    faultAtMs: 700,
    inject: async () => {
      refusedBefore = await noScriptCount();
      for (let flush = 0; flush < 3; flush += 1) {
        assert.equal(await sendRedisCommand(services.redisPort, 'SCRIPT FLUSH'), '+OK\r\n');
        await sleep(250);
      }
    },
  });
  assert.ok((await noScriptCount()) > refusedBefore, 'the flushes were met by NOSCRIPT refusals');
  assertMoneyRules(report);
});

test('PostgreSQL restarted mid-burst', scenarioTimeout, async () => {
  const report = await runScenario({
    name: 'postgres-restart',
    faultAtMs: 900,
    inject: () => services.restartPostgres(),
  });
  assertMoneyRules(report);
});

/**
 * The cut-off node (the third) also carries a 16 s stream that would outlive its lease: the node fences itself 7 s
 * after its last lease renewal (cuts the stream and settles what it delivered), so that stream's final charge is in
 * the database before another node reaps the node, and the reaper's checkpoint of it changes nothing.
 */
test('the network between a node and Redis cut for longer than a lease, then healed', scenarioTimeout, async () => {
  const report = await runScenario({
    name: 'redis-partition',
    longStreamOn: 2,
    faultAtMs: 700,
    inject: async (cluster) => {
      await cluster.redisProxy.cut();
      await sleep(12_000);
      assert.match(cluster.nodes[2]!.process.output(), /credit fence/, 'the cut-off node fenced itself');
      await cluster.redisProxy.heal();
    },
  });
  assertMoneyRules(report);
  assert.ok(report.cutStreams > 0, 'the fence cut the long stream after it had delivered content');
  assert.equal(report.superseded, 0, "the long stream's final charge was written before the reaper's checkpoint");
});
