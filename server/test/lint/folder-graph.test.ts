import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ESLint } from 'eslint';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const serverSource = path.join(repositoryRoot, 'server/src');

type AllowList = { allowed: string[]; typesOnly?: string[]; why: string };
/** Folder → the folders it may import. */
type FolderGraph = Map<string, Set<string>>;

const folders = readdirSync(serverSource, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** A cycle in `graph` as `a → b → … → a`, or undefined when there is none. */
function findCycle(graph: FolderGraph): string | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const trail: string[] = [];
  const visit = (folder: string): string | undefined => {
    if (state.get(folder) === 'done') return undefined;
    if (state.get(folder) === 'visiting') return [...trail.slice(trail.indexOf(folder)), folder].join(' → ');
    state.set(folder, 'visiting');
    trail.push(folder);
    for (const next of graph.get(folder) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(folder, 'done');
    return undefined;
  };
  for (const folder of graph.keys()) {
    const cycle = visit(folder);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The folder graph the code really has: every relative import of a non-test file, by top-level folder. */
function readImportGraph(): FolderGraph {
  const graph: FolderGraph = new Map(folders.map((folder) => [folder, new Set<string>()]));
  const importPattern = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
  for (const folder of folders) {
    const files = readdirSync(path.join(serverSource, folder), { recursive: true, encoding: 'utf8' });
    for (const file of files.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const filePath = path.join(serverSource, folder, file);
      for (const match of readFileSync(filePath, 'utf8').matchAll(importPattern)) {
        const target = path.relative(serverSource, path.resolve(path.dirname(filePath), match[1] ?? ''));
        const targetFolder = target.split(path.sep)[0] ?? '';
        if (targetFolder !== folder && folders.includes(targetFolder)) graph.get(folder)?.add(targetFolder);
      }
    }
  }
  return graph;
}

const toEdges = (graph: FolderGraph) =>
  [...graph].flatMap(([from, targets]) => [...targets].map((to) => `${from} --> ${to}`)).sort();

describe('the folder graph of server/src', () => {
  let allowLists: Record<string, AllowList>;
  let allowedGraph: FolderGraph;
  before(async () => {
    const config = (await new ESLint({ cwd: repositoryRoot }).calculateConfigForFile('server/src/app.ts')) as {
      rules: Record<string, [unknown, Record<string, AllowList>]>;
    };
    allowLists = config.rules['architecture/folder-imports']?.[1] ?? {};
    allowedGraph = new Map(
      Object.entries(allowLists).map(([folder, list]) => [
        folder,
        new Set([...list.allowed, ...(list.typesOnly ?? [])]),
      ]),
    );
  });

  test('every folder has an allow-list, and every allow-list names existing folders', () => {
    assert.deepEqual(Object.keys(allowLists).sort(), folders);
    for (const [folder, list] of Object.entries(allowLists)) {
      for (const target of [...list.allowed, ...(list.typesOnly ?? [])]) {
        assert.ok(folders.includes(target), `${folder}/ allows ${target}/, which does not exist`);
      }
    }
  });

  test('the allow-lists have no cycle', () => {
    assert.equal(findCycle(allowedGraph), undefined);
  });

  test('the imports in the code have no cycle between folders', () => {
    assert.equal(findCycle(readImportGraph()), undefined);
  });

  test('the cycle check finds a cycle', () => {
    const graph: FolderGraph = new Map([
      ['catalog', new Set(['config'])],
      ['config', new Set(['routing'])],
      ['routing', new Set(['catalog'])],
    ]);
    assert.equal(findCycle(graph), 'catalog → config → routing → catalog');
  });

  test('docs/ARCHITECTURE.md draws the allow-lists; every folder above the leaves may import all three', () => {
    const leaves = ['errors', 'lib', 'openai-api'];
    for (const [folder, list] of Object.entries(allowLists)) {
      if (leaves.includes(folder)) continue;
      assert.deepEqual(
        leaves.filter((leaf) => !list.allowed.includes(leaf)),
        [],
        `${folder}/ may import the leaves`,
      );
    }
    const architecture = readFileSync(path.join(repositoryRoot, 'docs/ARCHITECTURE.md'), 'utf8');
    const diagram = /```mermaid\n([\s\S]*?)```/.exec(architecture)?.[1] ?? '';
    // Mermaid ids cannot hold a hyphen, so `openai_api` draws openai-api/; `-.->` draws a types-only edge.
    const drawn = [...diagram.matchAll(/^\s*(\w+) (?:-->|-\.->) (\w+)/gm)]
      .map((match) => `${match[1]} --> ${match[2]}`.replaceAll('_', '-'))
      .sort();
    const allowed = toEdges(allowedGraph).filter((edge) => !leaves.some((leaf) => edge.endsWith(`--> ${leaf}`)));
    assert.deepEqual(drawn, allowed);
  });
});
