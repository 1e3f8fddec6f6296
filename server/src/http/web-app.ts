import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors/not-found-error.ts';
import { writeError } from './write-error.ts';

/**
 * Serves the built web app (`web/dist`) at `/`, with the single-page fallback to `index.html` for client routes.
 * Unknown `/v1`, `/api` and other API paths get an OpenAI-shaped 404 instead.
 */
export async function registerWebApp(app: FastifyInstance, input: { distDir: string }): Promise<void> {
  const indexPath = path.join(input.distDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  if (hasBuild) {
    await app.register(fastifyStatic, { root: input.distDir, prefix: '/', wildcard: false, index: ['index.html'] });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !/^\/(v1|api|webhooks)(\/|$)/.test(request.url);
    if (isPage && hasBuild) return reply.type('text/html').sendFile('index.html');
    if (isPage) {
      return reply
        .type('text/html')
        .send(
          '<!doctype html><title>Gateway</title><p>The web app is not built. Run <code>npm run build:web</code>.</p>',
        );
    }
    return writeError(
      request,
      reply,
      new NotFoundError(`Unknown path: ${request.method} ${request.url.split('?')[0]}`),
    );
  });
}
