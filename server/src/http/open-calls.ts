import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The `/v1` calls this node is answering, so a fence can end them all at once (`billing/start-credit-fence.ts`). */
export type OpenCalls = {
  /** Adds the hook that tracks each `/v1` request on `app` from its arrival until its response closes. */
  track: (app: FastifyInstance) => void;
  /**
   * Closes the connection of every open call: each route then sees its client leave (its usual abort signal), stops
   * the upstream call and settles what was delivered, as for any client that disconnects. Returns how many it cut.
   */
  cutAll: () => number;
};

export function createOpenCalls(): OpenCalls {
  const sockets = new Set<Socket>();
  return {
    track: (app) => {
      app.addHook('onRequest', async (request, reply) => {
        if (!request.url.startsWith('/v1/')) return;
        const { socket } = request.raw;
        sockets.add(socket);
        reply.raw.once('close', () => sockets.delete(socket));
      });
    },
    cutAll: () => {
      const cut = [...sockets];
      for (const socket of cut) socket.destroy();
      sockets.clear();
      return cut.length;
    },
  };
}
