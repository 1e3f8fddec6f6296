/** Why a new password would be refused; the same rules as the server's (docs/account-api.md), checked first here. */
export type PasswordProblem = 'tooShort' | 'tooSimple' | 'isEmail' | 'differs';

export const minimumPasswordLength = 10;
const minimumDistinctCharacters = 5;

export function checkNewPassword(input: {
  password: string;
  confirmation: string;
  email: string;
}): PasswordProblem | undefined {
  const { password } = input;
  if (password.length < minimumPasswordLength) return 'tooShort';
  if (new Set(password).size < minimumDistinctCharacters) return 'tooSimple';
  if (password.trim().toLowerCase() === input.email.trim().toLowerCase()) return 'isEmail';
  if (password !== input.confirmation) return 'differs';
  return undefined;
}
