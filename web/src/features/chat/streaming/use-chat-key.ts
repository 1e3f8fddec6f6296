import { useCallback, useRef } from 'react';
import { getBrowserChatKey } from '../../../api/chats-api.ts';

/** Renew the key this long before it expires, so an answer never starts with a key about to die. */
const renewMarginMs = 5 * 60 * 1000;

/**
 * The session's browser-chat key, asked for once and kept in memory only (never in storage). `get({ isFresh })`
 * asks again, after a 401 from `/v1` (the key expired or was revoked).
 */
export function useChatKey(): { get: (options?: { isFresh?: boolean }) => Promise<string> } {
  const cached = useRef<{ key: string; expiresAtMs: number } | undefined>(undefined);
  const get = useCallback(async (options: { isFresh?: boolean } = {}) => {
    const current = cached.current;
    if (!options.isFresh && current && current.expiresAtMs - Date.now() > renewMarginMs) return current.key;
    const answer = await getBrowserChatKey();
    cached.current = { key: answer.key, expiresAtMs: Date.parse(answer.expires_at) };
    return answer.key;
  }, []);
  return { get };
}
