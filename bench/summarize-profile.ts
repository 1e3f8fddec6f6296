import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Prints where a V8 CPU profile (`node --cpu-prof`) spent its time: self time by function and by source file,
 * plus inclusive time for frames under the repository's server/ folder.
 * Run: `node bench/summarize-profile.ts <file.cpuprofile> [top]`.
 */
type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const [file, topText] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/summarize-profile.ts <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topText ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const selfMs = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
});
const totalMs = [...selfMs.values()].reduce((sum, value) => sum + value, 0);

const describe = (node: ProfileNode) => {
  const where = node.callFrame.url ? `${shorten(node.callFrame.url)}:${node.callFrame.lineNumber + 1}` : '';
  return `${node.callFrame.functionName || '(anonymous)'} ${where}`.trim();
};
const bySelf = new Map<string, number>();
const byArea = new Map<string, number>();
const byFile = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const node = byId.get(id);
  if (!node) continue;
  bySelf.set(describe(node), (bySelf.get(describe(node)) ?? 0) + ms);
  const fileName = node.callFrame.url ? shorten(node.callFrame.url) : `(${node.callFrame.functionName || 'native'})`;
  byFile.set(fileName, (byFile.get(fileName) ?? 0) + ms);
  const area = areaOf(fileName);
  byArea.set(area, (byArea.get(area) ?? 0) + ms);
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
    const frame = byId.get(current);
    if (!frame || !frame.callFrame.url.includes('/server/src/')) continue;
    const name = describe(frame);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
  }
}

const print = (title: string, values: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, ms] of [...values].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(
      `${((ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms  ${name}\n`,
    );
  }
};
process.stdout.write(`total sampled: ${totalMs.toFixed(0)} ms\n`);
print('self time by function', bySelf);
print('self time by area (package, server folder, Node core)', byArea);
print('self time by file', byFile);
print('inclusive time of server/ functions', inclusive);

function shorten(url: string): string {
  const filePath = url.startsWith('file://') ? new URL(url).pathname : url;
  const marker = filePath.lastIndexOf('/node_modules/');
  if (marker !== -1) return filePath.slice(marker + 1);
  return path.relative(path.resolve(import.meta.dirname, '..'), filePath);
}

/** `node_modules/<package>`, `server/src/<folder>`, `node core`, or the native bucket itself. */
function areaOf(fileName: string): string {
  const packageMatch = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(fileName);
  if (packageMatch?.[1]) return packageMatch[1];
  const serverMatch = /^server\/src\/([^/]+)/.exec(fileName);
  if (serverMatch?.[1]) return `server/src/${serverMatch[1]}`;
  if (fileName.startsWith('node:')) return 'node core (JS)';
  if (fileName.startsWith('wasm:')) return 'wasm (TypeScript stripping, undici llhttp)';
  return fileName;
}
