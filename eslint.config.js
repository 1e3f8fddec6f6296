import { readdirSync } from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';

const serverSource = path.resolve(import.meta.dirname, 'server/src');
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
 * The dependency direction of STYLE.md §3, per folder of server/src: `allowed` lists the only folders it may import
 * (besides its own), `forbidden` the folders it must not. `http → {pipeline, responses, images, chats, operator,
 * subscriptions} → {routing, providers, billing, accounts, catalog, limits} → db`; errors/, lib/ and openai-api/ are
 * leaves anyone may import; only the composition roots (main.ts, start-gateway.ts, app.ts, cli/) see everything.
 */
const boundaries = {
  errors: { allowed: ['lib'], why: 'errors/ is a leaf' },
  lib: { allowed: [], why: 'lib/ is a leaf with no domain knowledge' },
  'openai-api': { allowed: ['errors', 'lib'], why: 'openai-api/ holds wire shapes only' },
  'anthropic-api': {
    allowed: [...leaves, 'providers'],
    why: 'anthropic-api/ converts wire shapes; it uses only the shared provider mechanics',
  },
  db: { allowed: [...leaves, 'config'], why: 'db/ imports no domain folder' },
  providers: { allowed: leaves, why: 'providers/ never imports db, billing, routing, http or the pipeline' },
  simulators: { allowed: [...leaves, 'providers'], why: 'simulators speak vendor wire formats only' },
  limits: { allowed: leaves, why: 'limits/ is framework- and domain-free' },
  search: { allowed: [...leaves, 'providers', 'simulators'], why: 'search/ talks to search engines only' },
  config: {
    allowed: [...leaves, 'db', 'providers', 'routing'],
    why: 'config/ reads settings, the catalogue and the key',
  },
  catalog: { allowed: [...leaves, 'config', 'db', 'providers'], why: 'catalog/ sits below the request stages' },
  billing: { allowed: [...leaves, 'catalog', 'db'], why: 'billing/ never imports the pipeline, http or providers' },
  routing: {
    allowed: [...leaves, 'catalog', 'db', 'providers'],
    why: 'routing/ ranks routes below the pipeline',
  },
  accounts: {
    allowed: [...leaves, 'billing', 'catalog', 'db', 'limits'],
    why: 'accounts/ never imports http or the pipeline',
  },
  chats: { allowed: [...leaves, 'accounts', 'db'], why: 'chats/ never imports http' },
  operator: {
    allowed: [...leaves, 'accounts', 'billing', 'catalog', 'db', 'subscriptions'],
    why: 'operator/ never imports http or the pipeline',
  },
  subscriptions: {
    allowed: [...leaves, 'accounts', 'billing', 'catalog', 'db', 'operator'],
    why: 'subscriptions/ never imports http or the pipeline',
  },
  pipeline: {
    allowed: [...leaves, 'accounts', 'billing', 'catalog', 'db', 'limits', 'operator', 'providers', 'routing'],
    why: 'the pipeline never imports http',
  },
  images: { forbidden: ['http', 'cli', 'responses', 'chats', 'simulators'], why: 'images/ never imports http' },
  responses: {
    forbidden: ['http', 'cli', 'images', 'chats', 'simulators'],
    why: 'responses/ never imports http, and reaches vendors through their adapters, never their simulators',
  },
  http: { forbidden: ['cli', 'simulators'], why: 'http/ serves the domain; it is not a composition root' },
  cli: { forbidden: ['http', 'simulators'], why: 'the CLI works on the domain, not through http' },
};

/** Packages only some folders (or root files) may import. */
const packageOwners = [
  {
    packages: ['fastify', '@fastify/'],
    owners: ['http', 'app.ts'],
    why: 'only http/ (and app.ts) import the web framework',
  },
  { packages: ['pg', 'node:sqlite'], owners: ['db'], why: 'only db/ imports database drivers' },
];

/** Resolves each relative import of a server/src file to its top-level folder and checks it against `boundaries`. */
const folderImportsRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const fromPath = path.relative(serverSource, context.filename);
    if (fromPath.startsWith('..')) return {};
    const fromPart = fromPath.split(path.sep)[0];
    const boundary = boundaries[fromPart];
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const owner = packageOwners.find((entry) =>
        entry.packages.some((name) => source === name || (name.endsWith('/') && source.startsWith(name))),
      );
      if (owner && !owner.owners.includes(fromPart)) {
        context.report({ node: node.source, message: `${source}: ${owner.why} (STYLE.md §3).` });
        return;
      }
      if (!boundary || !source.startsWith('.')) return;
      const target = path.relative(serverSource, path.resolve(path.dirname(context.filename), source));
      const targetPart = target.split(path.sep)[0];
      if (target.startsWith('..') || targetPart === fromPart) return;
      if (serverRootFiles.includes(targetPart)) {
        const rule = rootFileImporters[targetPart] ?? rootFileImporters.default;
        if (!rule.importers.includes(fromPart)) {
          context.report({
            node: node.source,
            message: `${fromPart}/ may not import ${targetPart}: ${rule.why} (STYLE.md §3).`,
          });
        }
        return;
      }
      if (!serverFolders.includes(targetPart)) return;
      const isAllowed = boundary.allowed
        ? boundary.allowed.includes(targetPart)
        : !boundary.forbidden.includes(targetPart);
      if (!isAllowed) {
        context.report({
          node: node.source,
          message: `${fromPart}/ may not import ${targetPart}/: ${boundary.why} (STYLE.md §3).`,
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
 * Lint, including the architecture rules of STYLE.md §3 and §16: import boundaries between folders, no
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
    rules: { 'architecture/folder-imports': 'error' },
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
    files: ['server/src/simulators/**/*.ts'],
    rules: { 'no-restricted-properties': ['error', readEnvironment] },
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
