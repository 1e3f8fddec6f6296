import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type WrkSlice = { okCount: number; failedCount: number; seconds: number };

/** What the Lua `done` hook prints: wrk's own counters for the slice, durations in microseconds. */
type WrkSummary = {
  requests: number;
  durationUs: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  statusErrors: number;
  timeouts: number;
};

const summaryMarker = 'WRK_SUMMARY ';

/**
 * One slice of load from wrk (a native C load generator, so its own CPU does not come out of the gateway's share on
 * a small machine): `connections` keep-alive connections on one thread, each sending the same POST for `seconds`.
 * Answers outside 2xx/3xx and socket errors count as failed; wrk's counters come back through a Lua `done` hook.
 */
export async function runWrk(input: {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  connections: number;
  seconds: number;
}): Promise<WrkSlice> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-wrk-'));
  try {
    const scriptPath = join(folder, 'post.lua');
    await writeFile(scriptPath, luaScript(input.headers, input.body));
    const args = ['-t1', `-c${input.connections}`, `-d${input.seconds}s`, '--timeout', '10s', '-s', scriptPath];
    const summary = parseSummary(await runToEnd('wrk', [...args, input.url]));
    return {
      okCount: summary.requests - summary.statusErrors,
      failedCount:
        summary.statusErrors + summary.connectErrors + summary.readErrors + summary.writeErrors + summary.timeouts,
      seconds: summary.durationUs / 1e6,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function luaScript(headers: Readonly<Record<string, string>>, body: string): string {
  const lines = ['wrk.method = "POST"', `wrk.body = ${luaString(body)}`];
  for (const [name, value] of Object.entries(headers))
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  lines.push(
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format("${summaryMarker}%d %d %d %d %d %d %d\\n", summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout))`,
    'end',
  );
  return `${lines.join('\n')}\n`;
}

/** A Lua long string: no escapes to get wrong, for any text without its closing bracket. */
function luaString(text: string): string {
  let level = '=';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}

function parseSummary(output: string): WrkSummary {
  const line = output.split('\n').find((candidate) => candidate.startsWith(summaryMarker));
  const numbers = line?.slice(summaryMarker.length).trim().split(' ').map(Number) ?? [];
  const [requests, durationUs, connectErrors, readErrors, writeErrors, statusErrors, timeouts] = numbers;
  if (numbers.length !== 7 || numbers.some((value) => !Number.isFinite(value)) || !durationUs) {
    throw new Error(`wrk printed no summary:\n${output}`);
  }
  return {
    requests: requests ?? 0,
    durationUs,
    connectErrors: connectErrors ?? 0,
    readErrors: readErrors ?? 0,
    writeErrors: writeErrors ?? 0,
    statusErrors: statusErrors ?? 0,
    timeouts: timeouts ?? 0,
  };
}

function runToEnd(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error('wrk is not installed (Debian package: wrk)') : error),
    );
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`wrk exited with ${code}:\n${output}`)),
    );
  });
}
