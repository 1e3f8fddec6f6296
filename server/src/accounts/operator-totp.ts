import { createHash } from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { TotpEnrolment, TotpRecoveryCodes, TotpStatus } from '../../../contract/totp.ts';
import type { Database } from '../db/database.ts';
import {
  confirmTotpCredential,
  countUnusedRecoveryCodes,
  findTotpCredential,
  hasSessionSecondFactor,
  markSessionSecondFactor,
  replaceTotpCredential,
  takeTotpTimeStep,
  useTotpRecoveryCode,
} from '../db/totp-credentials.ts';
import { findUserById } from '../db/users.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { PermissionDeniedError } from '../errors/permission-denied-error.ts';
import { RateLimitError } from '../errors/rate-limit-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { IdGenerator } from '../lib/ids.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';

export type OperatorTotpDeps = {
  db: Database;
  clock: Clock;
  ids: IdGenerator;
  secretBox: SecretBox;
  rateLimiter: RateLimiter;
  requireOperatorTotp: boolean;
};

type SessionRef = { sessionId: string; userId: string; role: 'user' | 'admin' };

/** RFC 6238 defaults, which every authenticator app reads from the URI: SHA-1, 6 digits, 30-second steps. */
const periodSeconds = 30;
/** One step either side: a phone clock a little off, or a code typed as it changes. */
const toleranceSeconds = periodSeconds;
const recoveryCodeCount = 10;
/** Wrong codes per minute per account, before 429: 6 digits leave 1 in 10^6 a guess, so few guesses may be made. */
const attemptsPerMinute = 5;

export async function getTotpStatus(deps: OperatorTotpDeps, session: SessionRef): Promise<TotpStatus> {
  const credential = await findTotpCredential(deps.db, session.userId);
  const isEnabled = credential?.confirmed_at !== null && credential !== undefined;
  return {
    is_enabled: isEnabled,
    is_required: deps.requireOperatorTotp && session.role === 'admin',
    is_session_verified: await hasSessionSecondFactor(deps.db, session.sessionId),
    recovery_codes_left: isEnabled ? await countUnusedRecoveryCodes(deps.db, session.userId) : 0,
  };
}

/**
 * A new secret for an operator's authenticator, sealed with the master key like vendor credentials. It counts only once
 * confirmed with a code (`confirmTotpEnrolment`); until then a new enrolment replaces it. A confirmed one is replaced
 * only after a reset (`npm run cli -- operator reset-totp`).
 */
export async function startTotpEnrolment(deps: OperatorTotpDeps, session: SessionRef): Promise<TotpEnrolment> {
  if (session.role !== 'admin') {
    throw new PermissionDeniedError('A second factor is for operator accounts.', { code: 'operator_only' });
  }
  const existing = await findTotpCredential(deps.db, session.userId);
  if (existing?.confirmed_at !== null && existing !== undefined) {
    throw new ConflictError('A second factor is set up already; the CLI resets it (operator reset-totp).');
  }
  const user = await findUserById(deps.db, session.userId);
  const secret = generateSecret();
  await replaceTotpCredential(deps.db, {
    userId: session.userId,
    secretCiphertext: deps.secretBox.seal(secret),
    createdAt: deps.clock.nowMs(),
  });
  const uri = generateURI({ issuer: 'Gateway', label: user?.email ?? session.userId, secret });
  // Loaded on the first enrolment, not at start: the QR encoder and its PNG code are about 1 MB of heap for good.
  const { default: QRCode } = await import('qrcode');
  return { secret, otpauth_uri: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 2 }) };
}

/** The first code confirms the enrolment: answers the recovery codes (shown once) and verifies this session. */
export async function confirmTotpEnrolment(
  deps: OperatorTotpDeps,
  input: { session: SessionRef; code: string },
): Promise<TotpRecoveryCodes> {
  const { session } = input;
  await throttleCodes(deps, session.userId);
  const credential = await findTotpCredential(deps.db, session.userId);
  if (!credential || credential.confirmed_at !== null) {
    throw new ConflictError('There is no enrolment to confirm; start one first.');
  }
  const timeStep = matchCode(deps, { sealedSecret: credential.secret_ciphertext, code: input.code });
  if (timeStep === undefined) throw wrongCode();
  const codes = Array.from({ length: recoveryCodeCount }, () => newRecoveryCode(deps.ids));
  const nowMs = deps.clock.nowMs();
  const isConfirmed = await confirmTotpCredential(deps.db, {
    userId: session.userId,
    confirmedAt: nowMs,
    timeStep,
    recoveryCodeHashes: codes.map(hashRecoveryCode),
  });
  if (!isConfirmed) throw new ConflictError('This enrolment was confirmed meanwhile.');
  await markSessionSecondFactor(deps.db, { sessionId: session.sessionId, userId: session.userId, verifiedAt: nowMs });
  return { recovery_codes: codes };
}

/**
 * Passes the second factor for this session: a current code not used before (its time step must be later than the
 * last accepted one), or an unused recovery code, which is then spent. Wrong codes are throttled per account.
 */
export async function verifyTotp(deps: OperatorTotpDeps, input: { session: SessionRef; code: string }): Promise<void> {
  const { session } = input;
  await throttleCodes(deps, session.userId);
  const credential = await findTotpCredential(deps.db, session.userId);
  if (!credential || credential.confirmed_at === null) {
    throw new ConflictError('This account has no second factor set up.');
  }
  const nowMs = deps.clock.nowMs();
  const timeStep = matchCode(deps, { sealedSecret: credential.secret_ciphertext, code: input.code });
  const isAccepted =
    timeStep === undefined
      ? await useTotpRecoveryCode(deps.db, {
          userId: session.userId,
          codeHash: hashRecoveryCode(input.code),
          usedAt: nowMs,
        })
      : await takeTotpTimeStep(deps.db, { userId: session.userId, timeStep });
  if (!isAccepted) throw wrongCode();
  await markSessionSecondFactor(deps.db, { sessionId: session.sessionId, userId: session.userId, verifiedAt: nowMs });
}

/**
 * The operator API's second-factor gate: an operator with a confirmed authenticator must have passed it in this
 * session; one without must set it up first while `REQUIRE_OPERATOR_TOTP` is on (the default).
 */
export async function requireOperatorSecondFactor(deps: OperatorTotpDeps, session: SessionRef): Promise<void> {
  const credential = await findTotpCredential(deps.db, session.userId);
  const isEnabled = credential !== undefined && credential.confirmed_at !== null;
  if (!isEnabled) {
    if (!deps.requireOperatorTotp) return;
    throw new PermissionDeniedError(
      'Operators must set up a second factor (an authenticator app) before using the operator API: open the operator console (/operator).',
      { code: 'totp_enrolment_required' },
    );
  }
  if (await hasSessionSecondFactor(deps.db, session.sessionId)) return;
  throw new PermissionDeniedError('Enter the code from your authenticator app (POST /api/auth/totp) first.', {
    code: 'second_factor_required',
  });
}

function matchCode(deps: OperatorTotpDeps, input: { sealedSecret: string; code: string }): number | undefined {
  const token = input.code.replaceAll(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const epochSeconds = Math.floor(deps.clock.nowMs() / 1000);
  const result = verifySync({
    secret: deps.secretBox.open(input.sealedSecret),
    token,
    epoch: epochSeconds,
    period: periodSeconds,
    epochTolerance: toleranceSeconds,
  });
  // `delta` is how many steps from the current one the code matched (-1, 0 or 1 with this tolerance).
  return result.valid ? Math.floor(epochSeconds / periodSeconds) + result.delta : undefined;
}

async function throttleCodes(deps: { rateLimiter: RateLimiter }, userId: string): Promise<void> {
  const decision = await deps.rateLimiter.take({
    subject: `totp:${userId}`,
    limitPerMinute: attemptsPerMinute,
    cost: 1,
  });
  if (decision.isAllowed) return;
  throw new RateLimitError('Too many codes tried. Wait for the time in Retry-After, then try again.', {
    retryAfterSeconds: decision.retryAfterMs / 1000,
    limitKind: 'requests',
  });
}

function wrongCode(): InvalidRequestError {
  return new InvalidRequestError('That code is not right, has expired or was used already.', {
    param: 'code',
    code: 'invalid_totp_code',
  });
}

/** Ten hex digits in two groups (`3f9a1-c07e2`): 40 random bits, enough with the throttle on guesses. */
function newRecoveryCode(ids: IdGenerator): string {
  const hex = ids.newId('').slice(0, 10);
  return `${hex.slice(0, 5)}-${hex.slice(5)}`;
}

function hashRecoveryCode(code: string): string {
  const normalised = code
    .trim()
    .toLowerCase()
    .replaceAll(/[^0-9a-f]/g, '');
  return createHash('sha256').update(normalised).digest('hex');
}
