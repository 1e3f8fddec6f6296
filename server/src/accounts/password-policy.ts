import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { minimumPasswordLength } from './create-user.ts';

const minimumDistinctCharacters = 5;

/**
 * Refuses a weak new password with a 400 naming the field: too short, too few different characters, or the
 * account's own e-mail address.
 */
export function checkNewPassword(input: { password: string; email: string; param: string }): void {
  const { password, param } = input;
  if (password.length < minimumPasswordLength) {
    throw new InvalidRequestError(`The password must have at least ${minimumPasswordLength} characters.`, {
      param,
      code: 'weak_password',
    });
  }
  if (new Set(password).size < minimumDistinctCharacters) {
    throw new InvalidRequestError(`The password must use at least ${minimumDistinctCharacters} different characters.`, {
      param,
      code: 'weak_password',
    });
  }
  if (password.trim().toLowerCase() === input.email.trim().toLowerCase()) {
    throw new InvalidRequestError('The password must not be the e-mail address.', { param, code: 'weak_password' });
  }
}
