import { ApiError } from '../../api/api-client.ts';
import type { Messages } from '../../i18n/messages-en.ts';

/** What to tell the user about a refused link or request, in words (the code decides which). */
export function describeLinkError(caught: unknown, text: Messages['accountEmail'], auth: Messages['auth']): string {
  if (!(caught instanceof ApiError)) return auth.genericError(String(caught));
  if (caught.status === 0) return auth.networkError;
  if (caught.code === 'invalid_link') return text.invalidLink;
  if (caught.code === 'link_expired') return text.expiredLink;
  if (caught.code === 'link_used') return text.usedLink;
  if (caught.status === 429) return auth.tooManyAttempts;
  return auth.genericError(caught.message);
}
