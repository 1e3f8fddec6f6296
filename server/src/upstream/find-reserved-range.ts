import { isIPv4, isIPv6 } from 'node:net';

type Range = { bytes: readonly number[]; prefixBits: number; name: string };

/** IANA's special-purpose IPv4 ranges (RFC 6890 and successors): none of them is a public upstream. */
const reservedIpv4: readonly Range[] = [
  range4('0.0.0.0', 8, '"this network"'),
  range4('10.0.0.0', 8, 'private'),
  range4('100.64.0.0', 10, 'shared address space (carrier-grade NAT)'),
  range4('127.0.0.0', 8, 'loopback'),
  range4('169.254.0.0', 16, 'link-local'),
  range4('172.16.0.0', 12, 'private'),
  range4('192.0.0.0', 24, 'IETF protocol assignments'),
  range4('192.0.2.0', 24, 'documentation'),
  range4('192.88.99.0', 24, '6to4 relay anycast'),
  range4('192.168.0.0', 16, 'private'),
  range4('198.18.0.0', 15, 'benchmarking'),
  range4('198.51.100.0', 24, 'documentation'),
  range4('203.0.113.0', 24, 'documentation'),
  range4('224.0.0.0', 4, 'multicast'),
  range4('240.0.0.0', 4, 'reserved'),
];

/** Special-purpose IPv6 ranges; those that embed an IPv4 address are judged by it (below). */
const reservedIpv6: readonly Range[] = [
  range6([], 128, 'unspecified'),
  range6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'),
  range6([], 96, 'IPv4-compatible (deprecated)'),
  range6([0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'local-use IPv4/IPv6 translation'),
  range6([0x01], 64, 'discard-only'),
  range6([0x20, 0x01, 0x00, 0x00], 23, 'IETF protocol assignments'),
  range6([0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'),
  range6([0x3f, 0xff], 20, 'documentation'),
  range6([0xfc], 7, 'unique local'),
  range6([0xfe, 0x80], 10, 'link-local'),
  range6([0xfe, 0xc0], 10, 'site-local (deprecated)'),
  range6([0xff], 8, 'multicast'),
];

const globalUnicast = range6([0x20], 3, 'global unicast');

/**
 * Why an IP address is not a public upstream (`loopback`, `private`, `link-local`, …), or undefined for a public
 * address. IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`) addresses are judged
 * by the IPv4 address they carry, so `::ffff:127.0.0.1` is loopback. Not an IP address at all: `not an IP address`.
 */
export function findReservedRange(address: string): string | undefined {
  const bytes = parseAddress(address);
  if (!bytes) return 'not an IP address';
  if (bytes.length === 4) return findRange(bytes, reservedIpv4);
  const embedded = embeddedIpv4(bytes);
  if (embedded) return findRange(embedded, reservedIpv4);
  const reserved = findRange(bytes, reservedIpv6);
  if (reserved) return reserved;
  // Only 2000::/3 is allocated for global unicast; anything else is reserved by IANA.
  return isInRange(bytes, globalUnicast) ? undefined : 'reserved';
}

function findRange(bytes: readonly number[], ranges: readonly Range[]): string | undefined {
  return ranges.find((candidate) => isInRange(bytes, candidate))?.name;
}

function isInRange(bytes: readonly number[], candidate: Range): boolean {
  for (let bit = 0; bit < candidate.prefixBits; bit += 1) {
    const byteIndex = Math.floor(bit / 8);
    const mask = 0x80 >> (bit % 8);
    if (((bytes[byteIndex] ?? 0) & mask) !== ((candidate.bytes[byteIndex] ?? 0) & mask)) return false;
  }
  return true;
}

function embeddedIpv4(bytes: readonly number[]): number[] | undefined {
  const startsWith = (prefix: readonly number[]) => prefix.every((value, index) => bytes[index] === value);
  const mapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
  const nat64 = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
  if (startsWith(mapped) || startsWith(nat64)) return bytes.slice(12, 16);
  if (startsWith([0x20, 0x02])) return bytes.slice(2, 6);
  return undefined;
}

/** 4 bytes for IPv4, 16 for IPv6 (brackets and a zone id allowed), undefined for anything else. */
export function parseAddress(text: string): number[] | undefined {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIPv4(address)) return address.split('.').map(Number);
  if (!isIPv6(address)) return undefined;
  const [head = '', tail] = address.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const toWords = (parts: string[]) =>
    parts.flatMap((part) => {
      if (!part.includes('.')) return [Number.parseInt(part, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const before = toWords(groups(head));
  const after = tail === undefined ? [] : toWords(groups(tail));
  const words = [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

function range4(address: string, prefixBits: number, name: string): Range {
  return { bytes: address.split('.').map(Number), prefixBits, name };
}

function range6(prefix: readonly number[], prefixBits: number, name: string): Range {
  return { bytes: prefix, prefixBits, name };
}
