import type { Mailer } from '../mail/mailer.ts';
import { toMailLocale, writeAccountMail, type AccountMailInput } from '../mail/account-mail-templates.ts';
import { renderMail } from '../mail/render-mail.ts';

/** What the account flows need to write mail: the mailer, the site's address for links, and link lifetimes. */
export type AccountMailDeps = {
  mailer: Pick<Mailer, 'post'>;
  publicBaseUrl: string;
  accountLinks: { verifyLinkTtlMs: number; resetLinkTtlMs: number };
};

/** Posts one account mail in the account's language (posting never waits for the SMTP server). */
export function postAccountMail(
  deps: Pick<AccountMailDeps, 'mailer'>,
  input: { to: string; locale: string; mail: AccountMailInput },
): void {
  const content = writeAccountMail(toMailLocale(input.locale), input.mail);
  deps.mailer.post(renderMail({ to: input.to, kind: input.mail.kind, content }));
}
