import { readdirSync } from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';

const serverSource = path.resolve(import.meta.dirname, 'server/src');
const simulatorSource = path.resolve(import.meta.dirname, 'simulators');
const serverRoot = path.resolve(import.meta.dirname, 'server');
/** Every folder of server/src: a folder added later is a dependency nobody may take until a line below allows it. */
const serverFolders = readdirSync(serverSource, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The files at the root of server/src: the composition roots and what only they use (start-up, logging). */
const serverRootFiles = readdirSync(serverSource, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => entry.name);

/**
 * Which folders may import a file at the root of server/src: none but the CLI (a composition root of its own), except
 * the start-up error that the configuration checks throw. Root files import each other freely.
 */
const rootFileImporters = {
  default: { importers: ['cli'], why: 'the files at the root of server/src are composition roots' },
  'startup-error.ts': { importers: ['cli', 'config'], why: 'only start-up code throws a StartupError' },
};

const leaves = ['errors', 'lib', 'openai-api'];

/**
 * The allow-list of every folder of server/src (docs/STYLE.md §3): `allowed` names the only other folders it may
 * import, `typesOnly` folders it may take types from (`import type`) and nothing else; a folder missing here may import
 * no other folder until a line is added. The lines run from the bottom of the graph up; every folder's list names only
 * folders above it in this table, and `server/test/lint/folder-graph.test.ts` fails on any cycle, in these lists or in
 * the imports themselves. docs/ARCHITECTURE.md draws this graph.
 */
const folderAllowLists = {
  lib: { allowed: [], why: 'lib/ is a leaf with no domain knowledge' },
  errors: { allowed: ['lib'], why: 'errors/ is a leaf' },
  'openai-api': { allowed: ['errors', 'lib'], why: 'openai-api/ holds wire shapes only' },
  upstream: { allowed: leaves, why: 'upstream/ is HTTP mechanics (undici, timeouts, capped bodies) with no domain' },
  limits: { allowed: leaves, why: 'limits/ is framework- and domain-free' },
  providers: {
    allowed: [...leaves, 'upstream'],
    why: 'providers/ never imports db, billing, routing, http or the pipeline',
  },
  search: { allowed: [...leaves, 'providers', 'upstream'], why: 'search/ talks to search engines only' },
  'anthropic-api': {
    allowed: [...leaves, 'providers'],
    why: 'anthropic-api/ converts wire shapes; it uses only the shared provider mechanics',
  },
  db: { allowed: leaves, why: 'db/ imports no domain folder' },
  config: {
    allowed: [...leaves, 'db', 'providers', 'limits'],
    why: 'config/ reads settings; everything above reads config/',
  },
  catalog: {
    allowed: [...leaves, 'config', 'db', 'providers', 'upstream'],
    why: 'catalog/ sits below the request stages',
  },
  routing: {
    allowed: [...leaves, 'catalog', 'config', 'db', 'providers', 'upstream'],
    why: 'routing/ ranks routes below the pipeline',
  },
  billing: { allowed: [...leaves, 'catalog', 'db'], why: 'billing/ never imports the pipeline, http or providers' },
  mail: { allowed: [...leaves, 'config', 'db'], why: 'mail/ writes and sends mail; it knows no account rules' },
  accounts: {
    allowed: [...leaves, 'billing', 'catalog', 'config', 'db', 'limits', 'mail'],
    why: 'accounts/ (with the request-path account terms) never imports http, the pipeline or the operator',
  },
  chats: { allowed: [...leaves, 'accounts', 'db'], why: 'chats/ never imports http' },
  subscriptions: {
    allowed: [...leaves, 'accounts', 'billing', 'db'],
    why: 'subscriptions/ sits below the operator, who manages plans',
  },
  payments: {
    allowed: [...leaves, 'billing', 'db', 'upstream'],
    why: 'payments/ never imports http; providers see only their contract',
  },
  alerts: {
    allowed: [...leaves, 'accounts', 'catalog', 'db', 'mail', 'routing', 'search'],
    why: 'alerts/ watches balances, renewals, routes and search, and mails; nothing below imports it',
  },
  audit: { allowed: [...leaves, 'db'], why: 'audit/ records and reads the audit log; every actor may call it' },
  operator: {
    allowed: [...leaves, 'accounts', 'audit', 'billing', 'catalog', 'db', 'subscriptions'],
    why: 'operator/ never imports http or the pipeline',
  },
  pipeline: {
    allowed: [...leaves, 'accounts', 'billing', 'catalog', 'db', 'limits', 'providers', 'routing'],
    why: 'the pipeline never imports http',
  },
  images: {
    allowed: [
      ...leaves,
      'accounts',
      'billing',
      'catalog',
      'config',
      'db',
      'limits',
      'pipeline',
      'providers',
      'routing',
      'upstream',
    ],
    why: 'images/ reuses the pipeline stages; it never imports http or the simulators',
  },
  embeddings: {
    allowed: [...leaves, 'accounts', 'billing', 'catalog', 'pipeline', 'providers', 'routing'],
    why: 'embeddings/ reuses the pipeline stages and reaches vendors through providers/, never http or the simulators',
  },
  responses: {
    allowed: [
      ...leaves,
      'accounts',
      'anthropic-api',
      'billing',
      'catalog',
      'config',
      'db',
      'limits',
      'pipeline',
      'providers',
      'search',
    ],
    why: 'responses/ never imports http, and reaches vendors through their adapters, never their simulators',
  },
  http: {
    allowed: [
      ...leaves,
      'accounts',
      'anthropic-api',
      'audit',
      'billing',
      'catalog',
      'chats',
      'embeddings',
      'images',
      'limits',
      'operator',
      'payments',
      'pipeline',
      'responses',
      'routing',
      'subscriptions',
    ],
    typesOnly: ['db'],
    why: 'http/ serves the domain: it names the database handle it passes on, and runs no query itself',
  },
  cli: {
    allowed: [...leaves, 'accounts', 'catalog', 'config', 'db', 'images', 'operator'],
    allowed: [...leaves, 'accounts', 'audit', 'catalog', 'config', 'db', 'images', 'operator'],
    why: 'the CLI works on the domain, not through http',
  },
};

/** Whether an import or re-export declaration brings in types only (`import type`, or every name marked `type`). */
function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const names = node.specifiers ?? [];
  return names.length > 0 && names.every((name) => name.importKind === 'type' || name.exportKind === 'type');
}

/** Packages only some folders (or root files) may import. */
const packageOwners = [
  {
    packages: ['fastify', '@fastify/'],
    owners: ['http', 'app.ts'],
    why: 'only http/ (and app.ts) import the web framework',
  },
  { packages: ['pg', 'node:sqlite'], owners: ['db'], why: 'only db/ imports database drivers' },
];

/** Resolves each relative import of a server/src file to its top-level folder and checks it against the allow-lists. */
const folderImportsRule = {
  meta: { type: 'problem', schema: [{ type: 'object' }] },
  create(context) {
    // The allow-lists come in as the rule's option, so tests read them from the configuration ESLint really uses.
    const allowLists = context.options[0] ?? {};
    const fromPath = path.relative(serverSource, context.filename);
    if (fromPath.startsWith('..')) return {};
    const fromPart = fromPath.split(path.sep)[0];
    const allowList = allowLists[fromPart];
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const owner = packageOwners.find((entry) =>
        entry.packages.some((name) => source === name || (name.endsWith('/') && source.startsWith(name))),
      );
      if (owner && !owner.owners.includes(fromPart)) {
        context.report({ node: node.source, message: `${source}: ${owner.why} (docs/STYLE.md §3).` });
        return;
      }
      // The composition roots (the files at the root of server/src) see everything.
      if (!source.startsWith('.') || serverRootFiles.includes(fromPart)) return;
      const resolved = path.resolve(path.dirname(context.filename), source);
      if (!path.relative(simulatorSource, resolved).startsWith('..')) {
        context.report({
          node: node.source,
          message: `${fromPart}/ may not import simulators/: only start-gateway.ts (in sandbox mode) and tests load them.`,
        });
        return;
      }
      const target = path.relative(serverSource, resolved);
      const targetPart = target.split(path.sep)[0];
      if (target.startsWith('..') || targetPart === fromPart) return;
      if (serverRootFiles.includes(targetPart)) {
        const rule = rootFileImporters[targetPart] ?? rootFileImporters.default;
        if (!rule.importers.includes(fromPart)) {
          context.report({
            node: node.source,
            message: `${fromPart}/ may not import ${targetPart}: ${rule.why} (docs/STYLE.md §3).`,
          });
        }
        return;
      }
      if (!serverFolders.includes(targetPart)) return;
      if (!allowList) {
        context.report({
          node: node.source,
          message: `${fromPart}/ has no allow-list: add a line for it to folderAllowLists in eslint.config.js (docs/STYLE.md §3).`,
        });
        return;
      }
      if (allowList.allowed.includes(targetPart)) return;
      if (allowList.typesOnly?.includes(targetPart) && isTypeOnly(node)) return;
      const what = allowList.typesOnly?.includes(targetPart) ? 'anything but types from ' : '';
      context.report({
        node: node.source,
        message: `${fromPart}/ may not import ${what}${targetPart}/: ${allowList.why} (docs/STYLE.md §3).`,
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/**
 * The simulators are independent witnesses of each wire format: from server/ they take types only (the vendor and
 * engine ids they are keyed by), never code, so a gateway bug cannot hide behind a shared helper.
 */
const simulatorImportsRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const resolved = path.resolve(path.dirname(context.filename), source);
      if (path.relative(serverRoot, resolved).startsWith('..')) return;
      const isTypeOnly =
        node.importKind === 'type' ||
        (node.specifiers?.length > 0 && node.specifiers.every((specifier) => specifier.importKind === 'type'));
      if (node.type === 'ImportExpression' || !isTypeOnly) {
        context.report({
          node: node.source,
          message: `${source}: simulators import only types from server/; they are independent witnesses of the wire formats.`,
        });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

const readEnvironment = {
  object: 'process',
  property: 'env',
  message: 'Read configuration in server/src/config/config.ts only.',
};
const parseJson = {
  object: 'JSON',
  property: 'parse',
  message: 'Parse untrusted JSON in the providers/shared or openai-api/ parsers, then check it with a schema.',
};

/**
 * Lint, including the architecture rules of docs/STYLE.md §3 and §16: import boundaries between folders, no
 * process.env outside config/, no JSON.parse outside the parsers, no web framework outside http/.
 */
export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'web/dist/**',
      'data/**',
      'test-artifacts/**',
      '**/__fixtures__/**',
      '.scratch/**',
      '.tmp/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-warning-comments': ['error', { terms: ['todo(?! #\\d)'], location: 'start' }],
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { architecture: { rules: { 'folder-imports': folderImportsRule } } },
    rules: { 'architecture/folder-imports': ['error', folderAllowLists] },
  },
  // Later blocks override earlier ones for the same rule, so each file set gets its whole list here.
  {
    files: ['server/src/**/*.ts'],
    rules: { 'no-restricted-properties': ['error', readEnvironment, parseJson] },
  },
  {
    files: [
      'server/src/providers/shared/**/*.ts',
      'server/src/payments/providers/shared/**/*.ts',
      'server/src/openai-api/**/*.ts',
      'server/src/**/*.test.ts',
    ],
    rules: { 'no-restricted-properties': ['error', readEnvironment] },
  },
  {
    files: ['server/src/config/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-properties': ['error', parseJson] },
  },
  {
    // The simulators stand in for vendors: they parse what clients send them, as a vendor's server does.
    files: ['simulators/**/*.ts'],
    plugins: { simulators: { rules: { 'type-only-server-imports': simulatorImportsRule } } },
    rules: {
      'no-restricted-properties': ['error', readEnvironment],
      'simulators/type-only-server-imports': 'error',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**'], message: 'The web app never imports from server/; use contract/.' }] },
      ],
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/web/**'], message: 'contract/ holds schemas only.' }] },
      ],
    },
  },
);
