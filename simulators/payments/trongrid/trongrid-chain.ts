import { randomBytes } from 'node:crypto';

/** The USDT (Tether) TRC20 contract on TRON mainnet, 6 decimals. */
export const usdtContract = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** One TRC20 `Transfer` as the simulated chain holds it; `state` moves as a test or the sandbox site says. */
export type SimulatedTransfer = {
  transactionId: string;
  contract: string;
  symbol: string;
  name: string;
  decimals: number;
  from: string;
  to: string;
  /** The raw integer value in the token's smallest unit, as TronGrid writes it (a decimal string). */
  value: string;
  blockTimestamp: number;
  state: 'unconfirmed' | 'confirmed' | 'dropped';
};

/** A plain TRX transfer: never a TRC20 transfer, so the TRC20 endpoint never lists it. */
export type SimulatedTrxTransfer = { transactionId: string; to: string; amountSun: number; blockTimestamp: number };

export type TronChain = {
  transfers: SimulatedTransfer[];
  trxTransfers: SimulatedTrxTransfer[];
  /** Answers the next API calls with these HTTP statuses (429 rate limit, 503 down) before answering normally. */
  faults: number[];
  apiCallCount: number;
  now: () => number;
};

export function createTronChain(now: () => number): TronChain {
  return { transfers: [], trxTransfers: [], faults: [], apiCallCount: 0, now };
}

export function newTransactionId(): string {
  return randomBytes(32).toString('hex');
}

/** A sender address: any 34-character Base58 string starting with T reads like one to the gateway's watcher. */
export const sandboxSender = 'TJmmqjb1DK9TTZbQXzRQ2AuA94z4gKAPFh';

/** "12.5" with 6 decimals → "12500000"; refuses anything but a plain non-negative decimal. */
export function toRawValue(amount: string, decimals: number): string {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(amount.trim());
  if (!match || (match[2] ?? '').length > decimals)
    throw new Error(`amount ${amount} is not a ${decimals}-decimal number`);
  const raw = BigInt(match[1] ?? '0') * 10n ** BigInt(decimals) + BigInt((match[2] ?? '').padEnd(decimals, '0') || '0');
  return raw.toString();
}

export function sendTransfer(
  chain: TronChain,
  input: { to: string; amount: string; contract?: string; symbol?: string; isConfirmed?: boolean },
): SimulatedTransfer {
  const transfer: SimulatedTransfer = {
    transactionId: newTransactionId(),
    contract: input.contract ?? usdtContract,
    symbol: input.symbol ?? 'USDT',
    name: input.contract === undefined || input.contract === usdtContract ? 'Tether USD' : 'Tether USD (look-alike)',
    decimals: 6,
    from: sandboxSender,
    to: input.to,
    value: toRawValue(input.amount, 6),
    blockTimestamp: chain.now(),
    state: input.isConfirmed === true ? 'confirmed' : 'unconfirmed',
  };
  chain.transfers.push(transfer);
  return transfer;
}

export function setTransferState(chain: TronChain, transactionId: string, state: SimulatedTransfer['state']): boolean {
  const transfer = chain.transfers.find((candidate) => candidate.transactionId === transactionId);
  if (!transfer) return false;
  transfer.state = state;
  return true;
}
