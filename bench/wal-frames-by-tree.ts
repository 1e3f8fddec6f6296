import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/**
 * Which B-trees (tables and indexes) the frames of a SQLite write-ahead log belong to, per commit, from `fromByte`
 * of the log on: the pages a group commit rewrites are what it costs (each frame is a page written to the log, and
 * later copied back by a checkpoint). Pages are named through SQLite's `dbstat` table, as they are at the end.
 */
export function walFramesByTree(input: { databasePath: string; fromByte: number }): {
  commits: number;
  frames: number;
  byTree: [name: string, framesPerCommit: number][];
} {
  const database = new DatabaseSync(input.databasePath, { readOnly: true });
  try {
    const pageSize = Number((database.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
    const names = new Map<number, string>();
    for (const row of database.prepare('SELECT name, pageno, pagetype FROM dbstat').all()) {
      const { name, pageno, pagetype } = row as { name: string; pageno: number; pagetype: string };
      names.set(pageno, `${name} (${pagetype})`);
    }
    const log = readFileSync(`${input.databasePath}-wal`);
    const frameBytes = 24 + pageSize;
    const counts = new Map<string, number>();
    let commits = 0;
    let frames = 0;
    for (let offset = Math.max(32, input.fromByte); offset + frameBytes <= log.length; offset += frameBytes) {
      const name = names.get(log.readUInt32BE(offset)) ?? 'a page freed since';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      frames += 1;
      // A frame's second word is the database's size after its commit, or 0 for a frame that does not end one.
      if (log.readUInt32BE(offset + 4) !== 0) commits += 1;
    }
    const perCommit = (count: number) => Math.round((count / Math.max(1, commits)) * 100) / 100;
    const byTree = [...counts].map(([name, count]): [string, number] => [name, perCommit(count)]);
    return { commits, frames, byTree: byTree.sort((a, b) => b[1] - a[1]) };
  } finally {
    database.close();
  }
}
