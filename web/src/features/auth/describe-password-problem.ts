import type { Messages } from '../../i18n/messages-en.ts';
import type { PasswordProblem } from './check-password.ts';

/** What a refused new password is told, in the page's language (sign-up and password reset alike). */
export function describePasswordProblem(problem: PasswordProblem, text: Messages['auth']): string {
  const descriptions = {
    tooShort: text.passwordTooShort,
    tooSimple: text.passwordTooSimple,
    isEmail: text.passwordIsEmail,
    differs: text.passwordsDiffer,
  } satisfies Record<PasswordProblem, string>;
  return descriptions[problem];
}
