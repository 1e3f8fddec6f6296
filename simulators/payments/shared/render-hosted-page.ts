import { renderQrSvg } from './render-qr-svg.ts';
import type { SimulatorResponse } from './start-simulator-server.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The simulator's stand-in for a provider's hosted payment page: the amount, then "Pay" and "Decline" buttons that
 * post back to the simulator. For SBP it shows the payment link as a QR code (to scan with a bank app) and as a link.
 */
export function renderHostedPage(input: {
  title: string;
  amountText: string;
  actionPath: string;
  sbpLink?: string;
  returnUrl?: string;
}): SimulatorResponse {
  const sbp = input.sbpLink
    ? `<figure id="sbp-qr">${renderQrSvg(input.sbpLink)}<figcaption>Scan the SBP QR code in your bank app, or open <a id="sbp-link" href="${escapeHtml(input.sbpLink)}">${escapeHtml(input.sbpLink)}</a></figcaption></figure>`
    : '';
  const back = input.returnUrl
    ? `<p><a id="return" href="${escapeHtml(input.returnUrl)}">Back to the shop</a></p>`
    : '';
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)}</title></head>
<body><h1>${escapeHtml(input.title)}</h1><p id="amount">${escapeHtml(input.amountText)}</p>${sbp}
<form method="post" action="${escapeHtml(input.actionPath)}/pay"><button id="pay" type="submit">Pay</button></form>
<form method="post" action="${escapeHtml(input.actionPath)}/decline"><button id="decline" type="submit">Decline</button></form>
${back}</body></html>`;
  return { status: 200, contentType: 'text/html; charset=utf-8', body };
}

/** After a button: back to the shop's return URL, as the providers redirect the payer. */
export function redirectTo(location: string): SimulatorResponse {
  return { status: 303, contentType: 'text/plain', body: '', headers: { location } };
}
