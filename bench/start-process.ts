import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync } from 'node:fs';

/** A child process of the benchmark: its address, its pid (for memory sampling) and a way to stop it. */
export type BenchProcess = { url: string; pid: number; stop: () => Promise<void> };

const startTimeoutMs = 30_000;

/**
 * Starts `node <args>` and waits until it prints `listening <url>` (or, with `readyPath`, until that path answers
 * 200 on `url`). The child's stderr is kept to explain a failed start; with `logFile`, everything it writes is kept
 * there too. Its output is always read: on Linux a process writing to a full pipe blocks, so an unread pipe would
 * freeze a gateway once its log passed 64 KB.
 */
export async function startNodeProcess(input: {
  args: readonly string[];
  env?: Record<string, string>;
  url?: string;
  readyPath?: string;
  logFile?: string;
}): Promise<BenchProcess> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...input.args], {
    env: { ...process.env, ...input.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString()).slice(-4000);
  });
  if (input.logFile !== undefined) {
    const logFile = input.logFile;
    for (const output of [child.stdout, child.stderr])
      output?.on('data', (data: Buffer) => appendFileSync(logFile, data));
  }
  if (input.readyPath !== undefined) child.stdout?.resume();
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${input.args.join(' ')} exited (${String(code)}) before it was ready:\n${stderr}`);
  });
  exited.catch(() => undefined);
  const deadlineMs = Date.now() + startTimeoutMs;
  const ready =
    input.readyPath === undefined ? readListeningLine(child) : pollReady(input.url ?? '', input.readyPath, deadlineMs);
  const timeout = new Promise<never>((_, reject) => {
    setTimeout(
      () => reject(new Error(`${input.args.join(' ')} did not start in time:\n${stderr}`)),
      startTimeoutMs,
    ).unref();
  });
  let url: string;
  try {
    url = await Promise.race([ready, exited, timeout]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { url, pid: child.pid ?? 0, stop: () => stopChild(child) };
}

async function readListeningLine(child: ChildProcess): Promise<string> {
  let output = '';
  for await (const data of child.stdout ?? []) {
    output += String(data);
    const match = /listening (\S+)/.exec(output);
    if (match?.[1]) {
      child.stdout?.resume();
      return match[1];
    }
  }
  throw new Error('the process closed its output before it was ready');
}

async function pollReady(url: string, path: string, deadlineMs: number): Promise<string> {
  while (Date.now() < deadlineMs) {
    try {
      const response = await fetch(`${url}${path}`);
      await response.arrayBuffer();
      if (response.ok) return url;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url}${path} did not answer 200 in time`);
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the process is gone. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
