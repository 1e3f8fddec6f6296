import net from 'node:net';

export type CuttingProxy = {
  /** The proxy's base URL (`http://127.0.0.1:<port>`); the browser loads the site through it. */
  url: string;
  /**
   * Arms the proxy for the next request whose first line starts with `requestLine` (`POST /v1/chat/completions`):
   * its answer passes until the bytes received so far satisfy `isEnough`, then the proxy stops forwarding and holds
   * the connection open. Resolves once the answer is held.
   */
  holdNextResponse: (input: { requestLine: string; isEnough: (responseText: string) => boolean }) => Promise<void>;
  /** Drops the held connection as a network failure would: a TCP reset to the browser, the gateway side closed. */
  cut: () => void;
  close: () => Promise<void>;
};

type Pending = {
  requestLine: string;
  isEnough: (responseText: string) => boolean;
  onHeld: () => void;
};

/**
 * A loopback TCP proxy in front of the gateway that passes every byte both ways, and can cut one chosen answer in
 * the middle of its stream. The browser then sees a real read failure (not a response that ends early), and the
 * gateway a real client disconnect.
 */
export async function startCuttingProxy(target: URL): Promise<CuttingProxy> {
  let pending: Pending | undefined;
  let held: { client: net.Socket; upstream: net.Socket } | undefined;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let watch: Pending | undefined;
    let responseText = '';
    client.on('data', (chunk) => {
      if (pending && chunk.toString('latin1').startsWith(pending.requestLine)) {
        watch = pending;
        pending = undefined;
        responseText = '';
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      client.write(chunk);
      if (!watch) return;
      responseText += chunk.toString('utf8');
      if (!watch.isEnough(responseText)) return;
      upstream.pause();
      held = { client, upstream };
      watch.onHeld();
      watch = undefined;
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${address.port}`,
    holdNextResponse: (input) =>
      new Promise<void>((resolve) => {
        pending = { ...input, onHeld: resolve };
      }),
    cut: () => {
      if (!held) throw new Error('no answer is held: call holdNextResponse first');
      held.client.resetAndDestroy();
      held.upstream.destroy();
      held = undefined;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
