import { z } from 'zod';
import type { PaymentHttp } from '../../payment-provider.ts';
import { callProviderApi } from '../shared/call-provider-api.ts';

/** The USDT (Tether) TRC20 contract on TRON mainnet; its token has 6 decimals. */
export const usdtTronContract = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const usdtDecimals = 6;

/** TronGrid's public API root (live mode). */
export const tronGridApiRoot = 'https://api.trongrid.io';

const maxPages = 5;
const pageSize = 200;

/** One row of `GET /v1/accounts/{address}/transactions/trc20`, as TronGrid documents it. */
const trc20TransferSchema = z.object({
  transaction_id: z.string().regex(/^[0-9a-fA-F]{64}$/),
  token_info: z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int() }),
  block_timestamp: z.number().int(),
  from: z.string(),
  to: z.string(),
  type: z.string(),
  value: z.string().regex(/^\d{1,30}$/),
});
export type Trc20Transfer = z.infer<typeof trc20TransferSchema>;

const trc20PageSchema = z.object({
  data: z.array(trc20TransferSchema),
  success: z.boolean(),
  meta: z.object({ fingerprint: z.string().optional() }).optional(),
});

export type TronGridAccess = { http: PaymentHttp; apiBaseUrl: string; apiKey: string | undefined };

/**
 * The TRC20 transfers of `address` for the USDT contract since `minTimestamp`, newest first, following TronGrid's
 * `fingerprint` paging: only solidified ones (`only_confirmed`) or only not-yet-confirmed ones. A 429 or 5xx throws a
 * retryable `PaymentProviderError`; the watcher backs off.
 */
export async function listTrc20Transfers(
  access: TronGridAccess,
  input: { address: string; confirmation: 'confirmed' | 'unconfirmed'; minTimestamp: number },
): Promise<Trc20Transfer[]> {
  const transfers: Trc20Transfer[] = [];
  let fingerprint: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const query = new URLSearchParams({
      [input.confirmation === 'confirmed' ? 'only_confirmed' : 'only_unconfirmed']: 'true',
      contract_address: usdtTronContract,
      min_timestamp: String(Math.max(0, input.minTimestamp)),
      limit: String(pageSize),
      ...(fingerprint === undefined ? {} : { fingerprint }),
    });
    const answer = await callProviderApi({
      http: access.http,
      providerId: 'tron',
      method: 'GET',
      url: `${access.apiBaseUrl}/v1/accounts/${encodeURIComponent(input.address)}/transactions/trc20?${query}`,
      headers: { accept: 'application/json', ...(access.apiKey ? { 'TRON-PRO-API-KEY': access.apiKey } : {}) },
      schema: trc20PageSchema,
    });
    transfers.push(...answer.data);
    fingerprint = answer.meta?.fingerprint;
    if (fingerprint === undefined || answer.data.length === 0) break;
  }
  return transfers;
}

/** An incoming USDT transfer to `address`, by the contract's address (a token's symbol can be anyone's). */
export function isUsdtDeposit(transfer: Trc20Transfer, address: string): boolean {
  return (
    transfer.token_info.address === usdtTronContract &&
    transfer.token_info.decimals === usdtDecimals &&
    transfer.type === 'Transfer' &&
    transfer.to === address
  );
}

/**
 * Keys each USDT deposit as `<tx id>:<n>`. TronGrid's TRC20 listing carries no event log index, so `n` numbers the
 * transfers to this address within one transaction in a fixed order (value, then sender): the same transfer gets the
 * same key on every poll and on every node, and two transfers in one transaction get two keys. A row listed twice
 * (same transaction, sender and value) counts once: crediting too little can be put right by hand, twice cannot.
 */
export function keyDeposits(
  transfers: readonly Trc20Transfer[],
  address: string,
): Array<{ key: string; transfer: Trc20Transfer }> {
  const byTransaction = new Map<string, Trc20Transfer[]>();
  for (const transfer of transfers) {
    if (!isUsdtDeposit(transfer, address)) continue;
    const id = transfer.transaction_id.toLowerCase();
    const group = byTransaction.get(id) ?? [];
    if (!group.some((seen) => seen.value === transfer.value && seen.from === transfer.from)) group.push(transfer);
    byTransaction.set(id, group);
  }
  return [...byTransaction.entries()].flatMap(([id, group]) =>
    group
      .toSorted((a, b) => compareValues(a.value, b.value) || a.from.localeCompare(b.from))
      .map((transfer, index) => ({ key: `${id}:${index}`, transfer })),
  );
}

function compareValues(a: string, b: string): number {
  const difference = BigInt(a) - BigInt(b);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}
