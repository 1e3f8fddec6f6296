import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type CbrSimulatorState = {
  /** The USD rate served, as the feed writes it (decimal comma), and its day `DD.MM.YYYY`. */
  usdValue: string;
  date: string;
  /** When true, the feed answers 503 (the CBR site being down). */
  isDown: boolean;
};

export type RunningCbrSimulator = { url: string; state: CbrSimulatorState; close: () => Promise<void> };

/**
 * A loopback stand-in for the Central Bank of Russia's daily rates feed, `GET /scripts/XML_daily.asp`: windows-1251
 * XML in the feed's own shape (a few currencies, Cyrillic names, decimal commas, `Nominal` above 1 for some).
 * Sandbox mode and tests read rates from it through the same client as the real feed.
 */
export async function startCbrSimulator(initial: Partial<CbrSimulatorState> = {}): Promise<RunningCbrSimulator> {
  const state: CbrSimulatorState = { usdValue: '92,2821', date: '26.11.2026', isDown: false, ...initial };
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/scripts/XML_daily.asp') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (state.isDown) {
      response.writeHead(503, { 'content-type': 'text/html' }).end('Service Unavailable');
      return;
    }
    const body = encodeWindows1251(renderDailyXml(state));
    response.writeHead(200, { 'content-type': 'application/xml; charset=windows-1251' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/scripts/XML_daily.asp`,
    state,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function renderDailyXml(state: CbrSimulatorState): string {
  const valutes = [
    { id: 'R01035', numCode: '826', charCode: 'GBP', nominal: 1, name: 'Фунт стерлингов', value: '117,4310' },
    { id: 'R01235', numCode: '840', charCode: 'USD', nominal: 1, name: 'Доллар США', value: state.usdValue },
    { id: 'R01239', numCode: '978', charCode: 'EUR', nominal: 1, name: 'Евро', value: '97,3472' },
    { id: 'R01375', numCode: '156', charCode: 'CNY', nominal: 1, name: 'Китайский юань', value: '12,7350' },
    { id: 'R01820', numCode: '392', charCode: 'JPY', nominal: 100, name: 'Японских иен', value: '59,8402' },
  ];
  const items = valutes.map(
    (valute) =>
      `<Valute ID="${valute.id}"><NumCode>${valute.numCode}</NumCode><CharCode>${valute.charCode}</CharCode>` +
      `<Nominal>${valute.nominal}</Nominal><Name>${valute.name}</Name><Value>${valute.value}</Value>` +
      `<VunitRate>${valute.value}</VunitRate></Valute>`,
  );
  return `<?xml version="1.0" encoding="windows-1251"?><ValCurs Date="${state.date}" name="Foreign Currency Market">${items.join('')}</ValCurs>`;
}

/** ASCII and the Russian alphabet into windows-1251 (А–я at 0xC0–0xFF, Ё 0xA8, ё 0xB8): all the feed uses. */
function encodeWindows1251(text: string): Buffer {
  const bytes = [...text].map((character) => {
    const code = character.codePointAt(0) ?? 0x3f;
    if (code < 0x80) return code;
    if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
    if (code === 0x401) return 0xa8;
    if (code === 0x451) return 0xb8;
    return 0x3f;
  });
  return Buffer.from(bytes);
}
