import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * This node's stable name among the gateway nodes that share Redis: `DATA_DIR/node-id`, made on first start. Credit
 * holds and pending charges in Redis are registered under it, so a restarted node takes back what it left behind.
 * Each node needs a data directory of its own (it also holds the node's settlement journal).
 */
export function loadNodeId(dataDir: string): string {
  const filePath = path.join(dataDir, 'node-id');
  try {
    const text = readFileSync(filePath, 'utf8').trim();
    if (/^node_[0-9a-f]{16}$/.test(text)) return text;
    throw new Error(`${filePath} does not hold a node id (node_ and 16 hex characters)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const nodeId = `node_${randomBytes(8).toString('hex')}`;
  try {
    writeFileSync(filePath, `${nodeId}\n`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadNodeId(dataDir);
    throw error;
  }
  return nodeId;
}
