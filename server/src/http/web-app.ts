import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../errors/not-found-error.ts';
import { clipEcho } from '../lib/clip-echo.ts';
import { writeError } from './write-error.ts';

/**
 * The web app's Content-Security-Policy. The built app is one script file and one style sheet from this origin (no
 * inline script or style; React sets styles through the CSSOM, which the policy allows), the favicon is a `data:`
 * image, and the page talks only to its own origin (`/api`, `/v1`). Nothing may frame it (clickjacking), and `<base>`,
 * plugins and forms to other origins are refused, so an injected tag cannot load or send anything elsewhere.
 */
export const webAppContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every page and asset of the web app. */
const webAppHeaders = {
  'content-security-policy': webAppContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  // Links out (chat citations, docs) carry no path of ours; same-origin calls keep the full referrer.
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
} as const;

function setWebAppHeaders(reply: FastifyReply): void {
  reply.headers(webAppHeaders);
}

/**
 * Serves the built web app (`web/dist`) at `/`, with the single-page fallback to `index.html` for client routes, and
 * the security headers above on every page and asset. Unknown `/v1`, `/api` and other API paths get an OpenAI-shaped
 * 404 instead.
 */
export async function registerWebApp(app: FastifyInstance, input: { distDir: string }): Promise<void> {
  const indexPath = path.join(input.distDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: input.distDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      setHeaders: setWebAppHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !/^\/(v1|api|webhooks)(\/|$)/.test(request.url);
    if (isPage) setWebAppHeaders(reply);
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
      new NotFoundError(`Unknown path: ${clipEcho(request.method, 20)} ${clipEcho(request.url.split('?')[0] ?? '')}`),
    );
  });
}
