import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderId } from '../server/src/providers/provider-id.ts';
import { createAnthropicSimulator } from './anthropic/create-anthropic-simulator.ts';
import { createAzureSimulator } from './azure/create-azure-simulator.ts';
import { createGeminiSimulator } from './gemini/create-gemini-simulator.ts';
import { createBflSimulator } from './bfl/create-bfl-simulator.ts';
import { dialectSimulators } from './openai-compatible/dialect-simulators.ts';
import { createOpenAiSimulator } from './openai/create-openai-simulator.ts';
import { routeSimulatorRequest } from './route-simulator-request.ts';
import type { VendorSimulator } from './shared/simulator-exchange.ts';
import { createSimulatorState } from './shared/simulator-state.ts';
import { createVertexSimulator } from './vertex/create-vertex-simulator.ts';

export type SimulatorOptions = { host?: string; port?: number; chunkDelayMs?: number; firstByteDelayMs?: number };
export type RunningSimulator = { url: string; close: () => Promise<void> };

/**
 * Starts the vendor simulators: one loopback HTTP server, every vendor under its path prefix (README.md). Used by the
 * tests and by sandbox mode. `close()` ends open streams and idle keep-alive sockets so the process can exit.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const closing = new AbortController();
  const vendors: Record<ProviderId, VendorSimulator> = {
    openai: createOpenAiSimulator(),
    anthropic: createAnthropicSimulator(),
    gemini: createGeminiSimulator(),
    bfl: createBflSimulator(),
    ...dialectSimulators,
    azure: createAzureSimulator(),
    vertex: createVertexSimulator(),
  };
  const vendorIds = Object.keys(vendors) as ProviderId[];
  const state = createSimulatorState({ nowMs: () => Date.now(), vendorIds });
  const deps = {
    state,
    vendors,
    vendorIds,
    closingSignal: closing.signal,
    timing: { chunkDelayMs: options.chunkDelayMs ?? 0, firstByteDelayMs: options.firstByteDelayMs ?? 0 },
  };
  const server = createServer((request, response) => {
    void routeSimulatorRequest(request, response, deps);
  });
  await listen(server, { host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function listen(server: Server, input: { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(input.port, input.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
