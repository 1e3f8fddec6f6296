import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const argon2Async = promisify(argon2);

/** OWASP's minimum Argon2id profile: 19 MiB, 2 passes, 1 lane. Stored in PHC string form so it can be raised later. */
const parameters = { memoryKib: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

/** Hashing and checking passwords: a dependency of sign-in, so tests can see which hashes it computes. */
export type PasswordHasher = {
  hash: (password: string) => Promise<string>;
  verify: (password: string, stored: string) => Promise<boolean>;
};

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const tag = await derive(password, salt, parameters);
  return `$argon2id$v=19$m=${parameters.memoryKib},t=${parameters.passes},p=${parameters.parallelism}$${salt.toString('base64url')}$${tag.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return false;
  const [, memory, passes, parallelism, saltText, tagText] = match;
  const expected = Buffer.from(tagText ?? '', 'base64url');
  const actual = await derive(password, Buffer.from(saltText ?? '', 'base64url'), {
    memoryKib: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expected.length,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function derive(
  password: string,
  salt: Buffer,
  profile: { memoryKib: number; passes: number; parallelism: number; tagLength: number },
): Promise<Buffer> {
  return argon2Async('argon2id', {
    message: password,
    nonce: salt,
    memory: profile.memoryKib,
    passes: profile.passes,
    parallelism: profile.parallelism,
    tagLength: profile.tagLength,
  });
}

export const argon2PasswordHasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword };
