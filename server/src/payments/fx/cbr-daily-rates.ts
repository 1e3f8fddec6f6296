import type { PaymentHttp } from '../payment-provider.ts';

/** The Central Bank of Russia's daily rates feed; `?date_req=DD/MM/YYYY` asks for another day. */
export const cbrDailyRatesUrl = 'https://www.cbr.ru/scripts/XML_daily.asp';

/** One day's official rate of the US dollar: integer micro-roubles per 1 USD. */
export type CbrUsdRate = { rateDate: string; microRoublesPerUsd: number };

/**
 * Fetches the day's rates and returns the dollar's. The feed is windows-1251 XML; only ASCII parts (the `Date`
 * attribute, `CharCode`, `Nominal`, `Value`) are read, so the Cyrillic currency names need no decoding.
 * @see https://www.cbr.ru/development/SXML/ (XML_daily.asp)
 */
export async function fetchCbrUsdRate(http: PaymentHttp, input: { url: string }): Promise<CbrUsdRate> {
  const reply = await http({ method: 'GET', url: input.url, timeoutMs: 10_000, maxBodyBytes: 1_000_000 });
  if (reply.status !== 200) throw new Error(`the CBR rates feed answered HTTP ${reply.status}`);
  return parseCbrDailyXml(reply.bodyText);
}

/**
 * Reads `<ValCurs Date="DD.MM.YYYY">` and the `<Valute>` whose `CharCode` is USD: `Value` (roubles for `Nominal`
 * units, decimal comma, four decimals) divided by `Nominal`, as integer micro-roubles, without a float.
 */
export function parseCbrDailyXml(xml: string): CbrUsdRate {
  const date = /<ValCurs\b[^>]*\bDate="(\d{2})\.(\d{2})\.(\d{4})"/.exec(xml);
  if (!date) throw new Error('the CBR rates feed has no ValCurs Date');
  const valutes = xml.match(/<Valute\b[^>]*>[\s\S]*?<\/Valute>/g) ?? [];
  const usd = valutes.find((valute) => readElement(valute, 'CharCode') === 'USD');
  if (!usd) throw new Error('the CBR rates feed has no USD rate');
  const nominal = Number(readElement(usd, 'Nominal'));
  const valueMicros = parseCommaDecimalMicros(readElement(usd, 'Value') ?? '');
  if (!Number.isSafeInteger(nominal) || nominal <= 0 || valueMicros === undefined || valueMicros <= 0) {
    throw new Error('the CBR rates feed has an unreadable USD rate');
  }
  return { rateDate: `${date[3]}-${date[2]}-${date[1]}`, microRoublesPerUsd: Math.floor(valueMicros / nominal) };
}

function readElement(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xml)?.[1];
}

/** "92,2821" → 92_282_100; at most six decimals; undefined when it is not such a number. */
function parseCommaDecimalMicros(text: string): number | undefined {
  const match = /^(\d{1,9})(?:,(\d{1,6}))?$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 1_000_000 + Number((match[2] ?? '').padEnd(6, '0'));
}
