/**
 * Copies text, through the Clipboard API where the page may use it (HTTPS or localhost) and otherwise through a
 * hidden selection, so copy buttons also work on a gateway served over plain HTTP on a LAN. Resolves false on failure.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Permission refused or the document lost focus; try the selection fallback below.
    }
  }
  return copyThroughSelection(text);
}

function copyThroughSelection(text: string): boolean {
  const textarea = document.createElement('textarea');
  textarea.value = text;
  textarea.setAttribute('readonly', '');
  textarea.style.position = 'fixed';
  textarea.style.opacity = '0';
  document.body.append(textarea);
  textarea.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    textarea.remove();
  }
}
