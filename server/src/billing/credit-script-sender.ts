import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Sends a credit node's per-call scripts (reserve, capture, release, checkpoint, lease) by their SHA once Redis has
 * run their text for this node, with their text before that and after Redis answered `NOSCRIPT` (its script cache
 * flushed: every script goes with its text again until Redis has run it). Unlike ioredis's `defineCommand`, it never
 * sends a refused command again by itself: the credit node does, as a new send (`redis-credit-node.ts`, decision 1881).
 */
export type CreditScriptSender = {
  send: (script: string, keys: readonly string[], args: readonly string[], byText: boolean) => Promise<unknown>;
  /** Redis answered `NOSCRIPT`: the next send of every script carries its text. */
  forgetLoaded: () => void;
};

export function createCreditScriptSender(redis: Redis): CreditScriptSender {
  const shas = new Map<string, string>();
  const loaded = new Set<string>();
  const shaOf = (script: string): string => {
    const known = shas.get(script);
    if (known) return known;
    const sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
    return sha;
  };
  return {
    send: async (script, keys, args, byText) => {
      if (!byText && loaded.has(script)) return redis.evalsha(shaOf(script), keys.length, ...keys, ...args);
      const answer = await redis.eval(script, keys.length, ...keys, ...args);
      loaded.add(script);
      return answer;
    },
    forgetLoaded: () => loaded.clear(),
  };
}

/** Redis refused an `EVALSHA` because its script cache does not hold the script: the command did nothing. */
export function isNoScriptError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
