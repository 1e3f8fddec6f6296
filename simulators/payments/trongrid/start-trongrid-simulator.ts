import type { SimulatorRequest, SimulatorResponse } from '../shared/start-simulator-server.ts';
import { isRecord, jsonResponse, readJson, startSimulatorServer } from '../shared/start-simulator-server.ts';
import {
  createTronChain,
  newTransactionId,
  sendTransfer,
  setTransferState,
  type SimulatedTransfer,
  type TronChain,
} from './trongrid-chain.ts';

export type TronGridSimulator = {
  url: string;
  close: () => Promise<void>;
  /** A TRC20 transfer to `to`: USDT unless `contract`/`symbol` say otherwise; unconfirmed unless `isConfirmed`. */
  send: (input: { to: string; amount: string; contract?: string; symbol?: string; isConfirmed?: boolean }) => string;
  /** A plain TRX transfer (not TRC20). */
  sendTrx: (input: { to: string; amountSun: number }) => string;
  /** The transfer reached the confirmations the API's `only_confirmed` waits for (solidified). */
  confirm: (transactionId: string) => void;
  /** An unconfirmed transfer vanishes from the chain (a fork dropped it). */
  drop: (transactionId: string) => void;
  /** The next `count` API calls are answered with `status` (429 rate limit, 503 down). */
  fail: (input: { status: number; count: number }) => void;
  apiCallCount: () => number;
};

const maxPageSize = 200;

/**
 * A TronGrid v1 HTTP API on 127.0.0.1, as much as a deposit watcher uses: `GET /v1/accounts/{address}/transactions/trc20`
 * with `only_confirmed` / `only_unconfirmed`, `contract_address`, `min_timestamp`, `limit` and `fingerprint` paging,
 * newest first. Control routes under `/_simulator/` let a test or the sandbox site send transfers (and look-alikes),
 * confirm or drop them and inject failures; the simulator imports nothing from the gateway.
 */
export async function startTronGridSimulator(
  input: { port?: number; now?: () => number } = {},
): Promise<TronGridSimulator> {
  const chain = createTronChain(input.now ?? Date.now);
  const server = await startSimulatorServer({
    ...(input.port === undefined ? {} : { port: input.port }),
    handle: (request) =>
      request.url.pathname.startsWith('/_simulator/') ? routeControl(chain, request) : routeApi(chain, request),
  });
  const must = (isFound: boolean, transactionId: string) => {
    if (!isFound) throw new Error(`no simulated transfer ${transactionId}`);
  };
  return {
    url: server.url,
    close: server.close,
    send: (transfer) => sendTransfer(chain, transfer).transactionId,
    sendTrx: ({ to, amountSun }) => {
      const transactionId = newTransactionId();
      chain.trxTransfers.push({ transactionId, to, amountSun, blockTimestamp: chain.now() });
      return transactionId;
    },
    confirm: (transactionId) => must(setTransferState(chain, transactionId, 'confirmed'), transactionId),
    drop: (transactionId) => must(setTransferState(chain, transactionId, 'dropped'), transactionId),
    fail: ({ status, count }) => chain.faults.push(...Array.from({ length: count }, () => status)),
    apiCallCount: () => chain.apiCallCount,
  };
}

function routeApi(chain: TronChain, request: SimulatorRequest): SimulatorResponse {
  chain.apiCallCount += 1;
  const fault = chain.faults.shift();
  if (fault !== undefined)
    return jsonResponse(fault, { success: false, error: `simulated HTTP ${fault}`, statusCode: fault });
  const match = /^\/v1\/accounts\/([1-9A-HJ-NP-Za-km-z]{25,40}|41[0-9a-fA-F]{40})\/transactions\/trc20$/.exec(
    request.url.pathname,
  );
  if (request.method !== 'GET' || !match)
    return jsonResponse(404, { success: false, error: 'Not Found', statusCode: 404 });
  const query = request.url.searchParams;
  const onlyConfirmed = query.get('only_confirmed') === 'true';
  const onlyUnconfirmed = query.get('only_unconfirmed') === 'true';
  if (onlyConfirmed && onlyUnconfirmed) {
    return jsonResponse(400, {
      success: false,
      error: 'only_confirmed and only_unconfirmed cannot both be true',
      statusCode: 400,
    });
  }
  const limit = Math.min(maxPageSize, Math.max(1, Number(query.get('limit') ?? '20') || 20));
  const minTimestamp = Number(query.get('min_timestamp') ?? '0') || 0;
  const contract = query.get('contract_address');
  const address = match[1] ?? '';
  const listed = chain.transfers
    .filter((transfer) => transfer.state !== 'dropped')
    .filter((transfer) => !onlyConfirmed || transfer.state === 'confirmed')
    .filter((transfer) => !onlyUnconfirmed || transfer.state === 'unconfirmed')
    .filter((transfer) => transfer.to === address || transfer.from === address)
    .filter((transfer) => contract === null || transfer.contract === contract)
    .filter((transfer) => transfer.blockTimestamp >= minTimestamp)
    .toReversed();
  const start = Number(query.get('fingerprint') ?? '0') || 0;
  const page = listed.slice(start, start + limit);
  const next = start + limit < listed.length ? String(start + limit) : undefined;
  return jsonResponse(200, {
    data: page.map(toWire),
    success: true,
    meta: { at: chain.now(), page_size: page.length, ...(next === undefined ? {} : { fingerprint: next }) },
  });
}

function toWire(transfer: SimulatedTransfer) {
  return {
    transaction_id: transfer.transactionId,
    token_info: {
      symbol: transfer.symbol,
      address: transfer.contract,
      decimals: transfer.decimals,
      name: transfer.name,
    },
    block_timestamp: transfer.blockTimestamp,
    from: transfer.from,
    to: transfer.to,
    type: 'Transfer',
    value: transfer.value,
  };
}

/** POST /_simulator/transfers {to, amount, contract?, symbol?}, /_simulator/trx {to, amount_sun}, …/{id}/confirm|drop, /_simulator/faults {status, count}. */
function routeControl(chain: TronChain, request: SimulatorRequest): SimulatorResponse {
  if (request.method !== 'POST') return jsonResponse(405, { error: 'POST only' });
  const body = readJson(request);
  const fields = isRecord(body) ? body : {};
  const text = (name: string) => (typeof fields[name] === 'string' ? fields[name] : undefined);
  const [, , resource, id, action] = request.url.pathname.split('/');
  try {
    if (resource === 'transfers' && id === undefined) {
      const to = text('to');
      const amount = text('amount');
      if (to === undefined || amount === undefined) return jsonResponse(400, { error: 'to and amount are required' });
      const contract = text('contract');
      const symbol = text('symbol');
      const transfer = sendTransfer(chain, {
        to,
        amount,
        ...(contract === undefined ? {} : { contract }),
        ...(symbol === undefined ? {} : { symbol }),
      });
      return jsonResponse(200, { transaction_id: transfer.transactionId });
    }
    if (resource === 'transfers' && id !== undefined && (action === 'confirm' || action === 'drop')) {
      const isFound = setTransferState(chain, id, action === 'confirm' ? 'confirmed' : 'dropped');
      return isFound ? jsonResponse(200, { transaction_id: id }) : jsonResponse(404, { error: 'no such transfer' });
    }
    if (resource === 'faults' && typeof fields['status'] === 'number' && typeof fields['count'] === 'number') {
      const status = fields['status'];
      chain.faults.push(...Array.from({ length: Math.min(100, fields['count']) }, () => status));
      return jsonResponse(200, { pending_faults: chain.faults.length });
    }
  } catch (error) {
    return jsonResponse(400, { error: error instanceof Error ? error.message : 'bad request' });
  }
  return jsonResponse(404, { error: 'unknown control route' });
}
