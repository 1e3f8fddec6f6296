/** A model id read as a product line and its version: `claude-opus-4-5` → line `claude-opus`, version [4, 5]. */
export type ModelLine = { stem: string; version: readonly number[] };

const markerWords = new Set(['latest', 'preview', 'exp']);

/**
 * Splits an id on dashes: numeric parts (`4`, `2.5`, `001`) make the version, dates (`0709`, `20250514`,
 * `2024-05-13`) and `latest`/`preview`/`exp` are dropped, the rest is the line. `gpt-5.4-mini` and `gpt-5-mini` share the line
 * `gpt-mini`; `gpt-4o` and `o3` are lines of their own.
 */
export function readModelLine(id: string): ModelLine {
  const words: string[] = [];
  const version: number[] = [];
  const name = (id.toLowerCase().split('/').at(-1) ?? '').replace(/-\d{4}-\d{2}-\d{2}$/, '');
  for (const part of name.split('-')) {
    if (/^\d+(\.\d+)*$/.test(part)) {
      if (!part.includes('.') && part.length >= 4) continue;
      version.push(...part.split('.').map(Number));
    } else if (!markerWords.has(part) && part !== '') {
      words.push(part);
    }
  }
  return { stem: words.join('-'), version };
}

/** Positive when `left` is the later version ([5] after [4, 5], [4, 6] after [4, 5]). */
export function compareVersions(left: readonly number[], right: readonly number[]): number {
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
