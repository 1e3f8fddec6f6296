import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export type GatewayProcess = {
  child: ChildProcess;
  /** Where the gateway listens, from its "gateway listening on" line; undefined until then. */
  url: () => string | undefined;
  /** Everything written to stdout and stderr so far. */
  output: () => string;
  /** Resolves when the process has exited and all its output has been read. */
  exited: Promise<ProcessExit>;
  /** Resolves when the process exits, even while a process it left behind still holds its output pipes. */
  processExited: Promise<ProcessExit>;
};

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

export const mainPath = new URL('../../src/main.ts', import.meta.url).pathname;

/** Spawns a gateway (or `npm start`) and collects its output; `waitForListening` waits for its first line. */
export function spawnGatewayProcess(input: {
  command: string;
  args: readonly string[];
  environment: Record<string, string>;
  /** In its own process group, so the test can signal the whole group like a terminal or a supervisor would. */
  isDetached?: boolean;
}): GatewayProcess {
  const child = spawn(input.command, input.args, {
    env: input.environment,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: input.isDetached ?? false,
  });
  let output = '';
  child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<ProcessExit>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const processExited = new Promise<ProcessExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    url: () => /gateway listening on (http:\/\/[^\s]+)/.exec(output)?.[1],
    output: () => output,
    exited,
    processExited,
  };
}

/** Spawns `node server/src/main.ts` with only the given environment (plus PATH). */
export function spawnGateway(environment: Record<string, string>): GatewayProcess {
  return spawnGatewayProcess({
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', mainPath],
    environment: { PATH: process.env.PATH ?? '', ...environment },
  });
}

/** Resolves with the URL once the gateway listens; rejects with its output if it exits first. */
export async function waitForListening(gateway: GatewayProcess): Promise<string> {
  let hasExited = false;
  void gateway.exited.then(() => (hasExited = true));
  for (;;) {
    const url = gateway.url();
    if (url) return url;
    if (hasExited) throw new Error(`the gateway exited before listening:\n${gateway.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Reads a streamed body to its end (or until the connection is cut), calling `onData` with the text so far. */
export async function readStream(response: Response, onData: (text: string) => void): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      onData(text);
    }
  } catch {
    // The connection was cut: what arrived so far is the answer.
  }
  return text;
}

/** Every live process below `pid` (children, grandchildren, …), from Linux's /proc. */
export function listDescendantPids(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) is in parentheses and may hold spaces; the parent pid follows the state.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we listed.
    }
  }
  const descendants: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    frontier = [...parentOf].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    descendants.push(...frontier);
  }
  return descendants;
}

/** Whether a process with this id still runs (a zombie waiting for its parent counts as gone). */
export function isProcessAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
