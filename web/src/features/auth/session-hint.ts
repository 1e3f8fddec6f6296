const hintKey = 'gateway.hasSession';

/**
 * Whether this browser was signed in when last seen. The session cookie is HttpOnly, so script cannot see it; this
 * flag (no secret in it) lets public pages skip asking `GET /api/me` for anonymous visitors, which would only earn
 * a 401. Pages that need a session ask anyway.
 */
export function readSessionHint(): boolean {
  try {
    return window.localStorage.getItem(hintKey) === '1';
  } catch {
    return false;
  }
}

export function writeSessionHint(hasSession: boolean): void {
  try {
    if (hasSession) window.localStorage.setItem(hintKey, '1');
    else window.localStorage.removeItem(hintKey);
  } catch {
    // Storage can be disabled; the app then asks the server on protected pages only.
  }
}
