import type { ReportRow } from './report.ts';

/**
 * For every figure the run missed, the measured reason and the next step, as the profiles in docs/benchmarks.md give
 * them (issue 20: the bench prints each target as met, or the explanation of its gap). Each entry names the sections
 * where its measurements are; when a change moves a figure, its entry here changes with the doc.
 */
const floorSystem = 'raw floor';

type Explanation = { figure: RegExp; gap: string; next: string; sections: string };

const explanations: readonly Explanation[] = [
  {
    figure: /^Requests\/s/,
    gap:
      "CPU per call is about three times the floor's, spread thin: no site of our own above 3% of the busy time. " +
      "Node's HTTP, socket and stream code (paid on both sides of the proxy, the socket writes alone about 14%) is " +
      'the largest share, then undici, garbage collection (about 81 KB allocated per call) and the settlement; the ' +
      "hot /v1 routes no longer go through Fastify. On SQLite the writer thread's share is 53-85 us a call. With " +
      "PostgreSQL + Redis, Redis's own CPU is about 190 us a call (about 39 commands inside the scripts of a call), " +
      'plus two round trips, all on the same two cores as the gateway.',
    next:
      'fewer commands inside the Redis scripts (one MGET for the registration check, one TIME per batch, the slot ' +
      "trim only when full); a longer group window for the writer thread; a call's headers in one writeHead; metrics " +
      'of our own counted per turn; the request body spliced instead of re-serialised.',
    sections:
      '"Issue 20, fifth session": the writer thread, /v1 on bare node:http, Redis per call; "Issue 20, fourth ' +
      'session": the gateway side',
  },
  {
    figure: /^RSS peak during/,
    gap:
      'the young generation (32 MB resident at the 16 MB semi-space cap; V8 rounds any cap above 8 MB up to 16) and ' +
      'the old generation V8 lets grow before it collects; what is live at c=64 is bounded by the 64 calls in flight, ' +
      'and the spread between runs is that growth.',
    next: 'fewer allocations per call, which lets the young generation shrink without more scavenges.',
    sections: '"Issue 20, fourth session: streams and memory" (the young generation), "PostgreSQL + Redis" (c=64 RSS)',
  },
  {
    figure: /^(Added latency p50 \/ p99, c=1|Streaming time to first token p50 \/ p99, c=1)/,
    gap:
      'the tail is garbage collection: one scavenge of several ms every ~150 calls at about 82 KB allocated per ' +
      'call; with PostgreSQL + Redis also two Redis round trips before the answer, each with a p99 of 4-6 ms on two ' +
      "cores shared by the client, the mock, the gateway, PostgreSQL and Redis. Compare the raw floor's own tail in " +
      'the same rows.',
    next:
      "fewer allocations per call (the request body spliced, metrics of our own, the relay's remaining streams); the " +
      "capture off the answer's path; for streams, the headers sent with the first event.",
    sections: '"Issue 20, third session: the c=1 tail", "Issue 20, fourth session: streams and memory"',
  },
  {
    figure: /^Streaming largest gap/,
    gap:
      "each chunk crosses the gateway's event loop, which also serves the stream's 250 ms delivery checkpoints " +
      '(a Redis script with PostgreSQL + Redis) and the collections above.',
    next: 'the same cuts in allocation per chunk; the checkpoint written in the turn the chunk is relayed.',
    sections: '"Issue 20, third session: the c=1 tail"',
  },
  {
    figure: /^RSS, \d+ streams/,
    gap:
      'at the peak: the Node binary about 64 MB, malloc 22-30 MB, the young generation 8 MB (held at its minimum ' +
      'while many connections are open), the old generation 75-80 MB, of which the idle process is 35 MB and the ' +
      "streams about 34 KB each (arrays, objects, strings, the calls' closures and their contexts; no item dominates), " +
      "and V8's other allocations and thread stacks 25-40 MB.",
    next:
      "the rest of the relay in one loop (guardBody and Node's stream iterator), fewer closures and contexts per " +
      "call (the sink's, the admission's), fewer idle-process modules; MEMORY_MODE=lean meets it today at the CPU " +
      'cost of a 4 MB semi-space.',
    sections:
      '"Issue 20, fifth session: the young generation, and the credit fence under load", "Issue 20, fourth session: ' +
      'streams and memory"',
  },
  {
    figure: /^RSS growth/,
    gap:
      "not established: 1,000 streams hold nothing per chunk by design (the third session's heap snapshots), and " +
      "the figure has ranged from -13% to +11% across this week's runs and modes; each miss has been a single run.",
    next: 'a heap snapshot at the middle of the 640-chunk run of the gateway that grew, compared with the 64-chunk one.',
    sections: '"Latest full run", "Issue 20, third session: memory"',
  },
];

/** The lines printed under the table: one block per explained figure the run missed, or nothing when all were met. */
export function explainMisses(rows: readonly ReportRow[]): string {
  const missed = rows.filter((row) => row.result === 'MISS');
  const blocks: string[] = [];
  for (const explanation of explanations) {
    const systems = [...new Set(missed.filter((row) => explanation.figure.test(row.figure)).map((row) => row.system))];
    if (systems.length === 0) continue;
    const figures = [...new Set(missed.filter((row) => explanation.figure.test(row.figure)).map((row) => row.figure))];
    // The raw floor's own figure in the same run: what a bare Node proxy does on this machine at this moment.
    const floor = rows.filter((row) => figures.includes(row.figure) && row.system === floorSystem && row.value !== '');
    blocks.push(
      [
        `MISS ${figures.join('; ')} (${systems.join(', ')})`,
        ...floor.map((row) => `  raw floor in this run: ${row.value}`),
        `  why:  ${explanation.gap}`,
        `  next: ${explanation.next}`,
        `  see:  docs/benchmarks.md, ${explanation.sections}`,
      ].join('\n'),
    );
  }
  return blocks.length === 0 ? '' : ['Why each missed target misses (from the profiles):', '', ...blocks].join('\n\n');
}
