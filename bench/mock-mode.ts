/** What the mock upstream answers: a completion after `delayMs`, or a stream of `chunkCount` chunks. */
export type MockMode = { delayMs: number; chunkCount: number; chunkIntervalMs: number };

export function parseMockMode(value: unknown): MockMode {
  const input = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const read = (name: keyof MockMode, fallback: number) => {
    const field = input[name];
    return typeof field === 'number' && Number.isFinite(field) && field >= 0 ? field : fallback;
  };
  return {
    delayMs: read('delayMs', 0),
    chunkCount: Math.max(1, read('chunkCount', 64)),
    chunkIntervalMs: read('chunkIntervalMs', 20),
  };
}

/** Switches the running mock upstream to another scenario. */
export async function setMockMode(mockUrl: string, mode: MockMode): Promise<void> {
  const response = await fetch(`${mockUrl}/__bench/mode`, { method: 'PUT', body: JSON.stringify(mode) });
  if (!response.ok) throw new Error(`the mock upstream refused the mode change (${response.status})`);
  await response.arrayBuffer();
}
