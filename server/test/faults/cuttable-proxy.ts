import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy on loopback between one gateway node and Redis; `cut()` drops every connection and refuses new ones. */
export type CuttableProxy = {
  port: number;
  cut: () => Promise<void>;
  heal: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    const listening = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
    port = (listening.address() as { port: number }).port;
    server = listening;
  };
  const cut = async () => {
    const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    for (const socket of sockets) socket.destroy();
    await closing;
  };
  await listen();
  return { port, cut, heal: listen, close: cut };
}
