import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The test lanes, sorted by what a test file needs started: `unit` needs nothing; `db` needs PostgreSQL and Redis (it
 * reaches `server/test/support/test-databases.ts` or `test-redis.ts`, directly or through another import); `e2e`
 * (server/test/e2e/) starts the gateway and needs both databases and the built web app; `browser` (web/test/browser/)
 * also drives Chromium; `faults` (server/test/faults/) starts its own databases and gateway processes. `scripts/test-lanes.test.ts` checks that every test file falls in exactly one lane.
 */
export const laneNames = ['unit', 'db', 'e2e', 'browser', 'faults'] as const;
export type LaneName = (typeof laneNames)[number];

export type LaneNeeds = { services: boolean; webBuild: boolean };
export const laneNeeds = {
  unit: { services: false, webBuild: false },
  db: { services: true, webBuild: false },
  e2e: { services: true, webBuild: true },
  browser: { services: true, webBuild: true },
  // The fault suite starts (and restarts) its own PostgreSQL, Redis and gateway processes.
  faults: { services: false, webBuild: false },
} as const satisfies Record<LaneName, LaneNeeds>;

/** The folders `npm test` looks for test files in (relative to the repository). */
export const testFolders = ['server', 'simulators', 'contract', 'web/test', 'scripts', 'bench'] as const;
const laneFolders = { e2e: 'server/test/e2e/', browser: 'web/test/browser/', faults: 'server/test/faults/' } as const;
const serviceModules = ['server/test/support/test-databases.ts', 'server/test/support/test-redis.ts'];
const skippedFolders = new Set(['node_modules', '.git', 'dist', 'data', 'test-artifacts', '__fixtures__']);

/** Every `*.test.ts` file under `folder`, relative to `root`. */
export function listTestFiles(root: string, folder: string): string[] {
  if (!existsSync(path.join(root, folder))) return [];
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : listTestFiles(root, relative);
    return entry.name.endsWith('.test.ts') ? [relative] : [];
  });
}

const importPattern = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.tsx?)'/g;

/** Whether `file` reaches one of the modules that need PostgreSQL or Redis through its relative imports. */
function reachesServices(root: string, file: string, seen = new Set<string>()): boolean {
  if (serviceModules.includes(file)) return true;
  if (seen.has(file) || !existsSync(path.join(root, file))) return false;
  seen.add(file);
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(importPattern)].some((match) =>
    reachesServices(root, path.posix.join(path.posix.dirname(file), match[1] ?? ''), seen),
  );
}

/** The one lane of a test file (a path relative to `root`). */
export function laneOf(root: string, file: string): LaneName {
  if (file.startsWith(laneFolders.browser)) return 'browser';
  if (file.startsWith(laneFolders.e2e)) return 'e2e';
  if (file.startsWith(laneFolders.faults)) return 'faults';
  return reachesServices(root, file) ? 'db' : 'unit';
}

/** The test files of each lane. */
export function sortIntoLanes(root: string): Record<LaneName, string[]> {
  const lanes: Record<LaneName, string[]> = { unit: [], db: [], e2e: [], browser: [], faults: [] };
  for (const file of testFolders.flatMap((folder) => listTestFiles(root, folder)).sort()) {
    lanes[laneOf(root, file)].push(file);
  }
  return lanes;
}
