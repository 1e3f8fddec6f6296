import { parseArgs } from 'node:util';

/** How long each figure is measured; `--quick` shrinks everything to a smoke run of well under a minute. */
export type BenchDurations = {
  rounds: number;
  throughputSliceSeconds: number;
  latencySliceMs: number;
  streamSliceMs: number;
  warmupMs: number;
  memoryStreamCount: number;
  memoryStreamSeconds: number;
};

export type ExternalTarget = {
  url: string;
  key: string;
  model: string;
  pid: number | undefined;
  headers: Readonly<Record<string, string>>;
};

export const benchPhases = ['throughput', 'latency', 'streams', 'memory'] as const;
export type BenchPhase = (typeof benchPhases)[number];

export type BenchOptions = {
  isQuick: boolean;
  /** The figures to measure (all by default; fewer when profiling one of them). */
  phases: ReadonlySet<BenchPhase>;
  durations: BenchDurations;
  /** Another OpenAI-compatible gateway to measure beside ours, pointed at the mock upstream on `mockPort`. */
  external: ExternalTarget | undefined;
  mockPort: number;
  isPostgresSkipped: boolean;
  /** Directory for `--cpu-prof` output of the gateway under test (SQLite), when profiling. */
  cpuProfileDir: string | undefined;
  /** Extra Node flags for the gateway processes, e.g. `--max-semi-space-size=8` (space-separated). */
  gatewayNodeArgs: readonly string[];
  /** `PROCESSES` of the PostgreSQL + Redis gateway (SQLite refuses more than one). */
  processes: number;
};

export const usage = `usage: npm run bench -- [--quick] [--no-postgres] [--profile DIR] [--only throughput,latency,streams,memory]
                         [--gateway-node-args="FLAGS"] [--processes N]
                         [--mock-port N --target-url URL --target-key KEY --target-model M [--target-pid PID]
                          [--target-header "name: value" ...]]`;

const fullDurations: BenchDurations = {
  rounds: 3,
  throughputSliceSeconds: 4,
  latencySliceMs: 3_000,
  streamSliceMs: 4_000,
  warmupMs: 2_000,
  memoryStreamCount: 1_000,
  memoryStreamSeconds: 20,
};

const quickDurations: BenchDurations = {
  rounds: 1,
  throughputSliceSeconds: 2,
  latencySliceMs: 1_500,
  streamSliceMs: 1_500,
  warmupMs: 500,
  memoryStreamCount: 200,
  memoryStreamSeconds: 3,
};

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      'no-postgres': { type: 'boolean' },
      profile: { type: 'string' },
      'gateway-node-args': { type: 'string' },
      processes: { type: 'string' },
      'mock-port': { type: 'string' },
      'target-url': { type: 'string' },
      'target-key': { type: 'string' },
      'target-model': { type: 'string' },
      'target-pid': { type: 'string' },
      'target-header': { type: 'string', multiple: true },
    },
  });
  const targetUrl = values['target-url'];
  if (targetUrl !== undefined && (values['target-key'] === undefined || values['target-model'] === undefined)) {
    throw new Error('--target-url needs --target-key and --target-model');
  }
  const processes = Number(values.processes ?? 1);
  if (!Number.isInteger(processes) || processes < 1) throw new Error('--processes takes a whole number from 1');
  const isQuick = values.quick === true;
  return {
    isQuick,
    phases: parsePhases(values.only),
    durations: isQuick ? quickDurations : fullDurations,
    external:
      targetUrl === undefined
        ? undefined
        : {
            url: targetUrl,
            key: values['target-key'] ?? '',
            model: values['target-model'] ?? '',
            pid: values['target-pid'] === undefined ? undefined : Number(values['target-pid']),
            headers: parseHeaders(values['target-header'] ?? []),
          },
    mockPort: Number(values['mock-port'] ?? 0),
    isPostgresSkipped: values['no-postgres'] === true,
    cpuProfileDir: values.profile,
    gatewayNodeArgs: (values['gateway-node-args'] ?? '').split(' ').filter((arg) => arg !== ''),
    processes,
  };
}

function parsePhases(text: string | undefined): ReadonlySet<BenchPhase> {
  if (text === undefined) return new Set(benchPhases);
  const phases = new Set<BenchPhase>();
  for (const name of text.split(',')) {
    const phase = benchPhases.find((candidate) => candidate === name.trim());
    if (!phase) throw new Error(`--only takes a comma-separated list of: ${benchPhases.join(', ')}`);
    phases.add(phase);
  }
  return phases;
}

function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`--target-header takes "name: value", got "${line}"`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}
