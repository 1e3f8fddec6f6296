import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSearchSimulator } from '../../../simulators/search/start-search-simulator.ts';

export type SwitchableSearchEngine = {
  /** SearXNG's base URL for SEARCH_BASE_URL. */
  url: string;
  /** While failing, every search is answered `500`; otherwise the search simulator's SearXNG answers it. */
  setFailing: (isFailing: boolean) => void;
  close: () => Promise<void>;
};

/**
 * A SearXNG on loopback that a test can break and mend: a front server that answers 500 while failing and otherwise
 * passes the request to the search simulator's SearXNG dialect, so a healthy answer is the real wire format.
 */
export async function startSwitchableSearchEngine(): Promise<SwitchableSearchEngine> {
  const simulator = await startSearchSimulator({ host: '127.0.0.1' });
  const simulatorUrl = new URL(simulator.url);
  let isFailing = true;
  const server = createServer((incoming, outgoing) => {
    if (isFailing) {
      outgoing.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
      return;
    }
    const relay = forward(
      {
        host: simulatorUrl.hostname,
        port: simulatorUrl.port,
        method: incoming.method,
        path: `/searxng${incoming.url ?? '/'}`,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    relay.on('error', () => outgoing.destroy());
    incoming.pipe(relay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setFailing: (value) => {
      isFailing = value;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await simulator.close();
    },
  };
}
