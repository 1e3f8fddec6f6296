import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The `/v1` calls this node is answering, by request id, so a fence can end them (`billing/start-credit-fence.ts`). */
export type OpenCalls = {
  /** Adds the hook that tracks each `/v1` request on `app` from its arrival until its response closes. */
  track: (app: FastifyInstance) => void;
  /** Tracks one call served without Fastify (`hot-routes.ts`) until `response` closes. */
  add: (requestId: string, socket: Socket, response: ServerResponse) => void;
  /**
   * Closes the connection of each open call named: its route then sees its client leave (its usual abort signal),
   * stops the upstream call and settles what was delivered, as for any client that disconnects. Returns how many it
   * cut.
   */
  cut: (requestIds: Iterable<string>) => number;
};

export function createOpenCalls(): OpenCalls {
  const sockets = new Map<string, Socket>();
  const add = (requestId: string, socket: Socket, response: ServerResponse) => {
    sockets.set(requestId, socket);
    response.once('close', () => sockets.delete(requestId));
  };
  return {
    track: (app) => {
      app.addHook('onRequest', async (request, reply) => {
        if (request.url.startsWith('/v1/')) add(request.id, request.raw.socket, reply.raw);
      });
    },
    add,
    cut: (requestIds) => {
      let cutCount = 0;
      for (const id of requestIds) {
        const socket = sockets.get(id);
        if (!socket) continue;
        sockets.delete(id);
        socket.destroy();
        cutCount += 1;
      }
      return cutCount;
    },
  };
}
