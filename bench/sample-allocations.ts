/**
 * Bytes a Node process allocates while `during` runs, from V8's sampling heap profiler over the inspector protocol
 * (the process runs with `--inspect=127.0.0.1:<port>`). Objects the scavenger and the mark-compact collect are
 * counted too (`includeObjectsCollectedByMinorGC`/`MajorGC`), so the sum is what was allocated, not what survived:
 * the figure that decides how often the young generation fills. Each sample stands for its size times V8's scaled
 * count, so the sum is an estimate whose error shrinks with the number of calls.
 */
export type AllocationSample = {
  totalBytes: number;
  /** Allocating functions, largest first: `name url:line` and the bytes they allocated themselves. */
  sites: { site: string; bytes: number }[];
  /** The gateway's own functions (under `server/`) with what they and everything they called allocated. */
  inclusiveServerSites: { site: string; bytes: number }[];
};

type ProfileNode = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
};

const samplingIntervalBytes = 1024;

export async function sampleAllocations(inspectPort: number, during: () => Promise<void>): Promise<AllocationSample> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const address = targets[0]?.webSocketDebuggerUrl;
  if (address === undefined) throw new Error('the inspector lists no target');
  const inspector = await connectInspector(address);
  try {
    await inspector.send('HeapProfiler.startSampling', {
      samplingInterval: samplingIntervalBytes,
      includeObjectsCollectedByMinorGC: true,
      includeObjectsCollectedByMajorGC: true,
    });
    await during();
    const { profile } = (await inspector.send('HeapProfiler.stopSampling', {})) as { profile: { head: ProfileNode } };
    return summarize(profile.head);
  } finally {
    inspector.close();
  }
}

function summarize(head: ProfileNode): AllocationSample {
  const bySite = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalBytes = 0;
  // Each node with the server/ sites above it, so a recursive call is counted once in its site's inclusive bytes.
  const pending: { node: ProfileNode; above: ReadonlySet<string> }[] = [{ node: head, above: new Set() }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node } = next;
    const site = describeSite(node);
    totalBytes += node.selfSize;
    if (node.selfSize > 0) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    let above = next.above;
    if (site.includes(' server/') && !above.has(site)) {
      inclusive.set(site, (inclusive.get(site) ?? 0) + subtreeBytes(node));
      above = new Set([...above, site]);
    }
    for (const child of node.children) pending.push({ node: child, above });
  }
  return { totalBytes, sites: sortBySize(bySite), inclusiveServerSites: sortBySize(inclusive) };
}

function describeSite(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/^.*?\/(server|node_modules)\//, '$1/')}:${lineNumber + 1}`;
}

function subtreeBytes(root: ProfileNode): number {
  let bytes = 0;
  const pending = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    bytes += node.selfSize;
    pending.push(...node.children);
  }
  return bytes;
}

function sortBySize(bytesBySite: ReadonlyMap<string, number>): { site: string; bytes: number }[] {
  return [...bytesBySite].map(([site, bytes]) => ({ site, bytes })).sort((a, b) => b.bytes - a.bytes);
}

async function connectInspector(address: string): Promise<{
  send: (method: string, params: object) => Promise<unknown>;
  close: () => void;
}> {
  const socket = new WebSocket(address);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${address}`)), {
      once: true,
    });
  });
  const waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const caller = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) caller?.reject(new Error(message.error.message));
    else caller?.resolve(message.result);
  });
  let nextId = 1;
  return {
    send: (method, params) =>
      new Promise((resolve, reject) => {
        const id = nextId;
        nextId += 1;
        waiting.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}
