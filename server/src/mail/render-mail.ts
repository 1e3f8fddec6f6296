import type { MailMessage } from './mailer.ts';

/** What a mail says, before it is rendered: a subject, paragraphs and at most one link to act on. */
export type MailContent = {
  readonly subject: string;
  readonly paragraphs: readonly string[];
  readonly action?: { readonly label: string; readonly url: string } | undefined;
  readonly footer: string;
};

/** Renders one content as plain text and as HTML (escaped; the link is both a button and a bare URL to copy). */
export function renderMail(input: { to: string; kind: string; content: MailContent }): MailMessage {
  const { content } = input;
  const textParts = [...content.paragraphs];
  if (content.action) textParts.push(`${content.action.label}:\n${content.action.url}`);
  textParts.push(`--\n${content.footer}`);
  const htmlParts = content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`);
  if (content.action) {
    const url = escapeHtml(content.action.url);
    htmlParts.push(
      `<p><a href="${url}" style="display:inline-block;padding:10px 16px;background:#1f6feb;color:#fff;` +
        `text-decoration:none;border-radius:6px">${escapeHtml(content.action.label)}</a></p>`,
      `<p style="font-size:12px;color:#555">${url}</p>`,
    );
  }
  htmlParts.push(`<p style="font-size:12px;color:#555">${escapeHtml(content.footer)}</p>`);
  return {
    to: input.to,
    kind: input.kind,
    subject: content.subject,
    text: `${textParts.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${htmlParts.join('')}</body></html>`,
  };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
