import tseslint from 'typescript-eslint';

const restrict = (patterns) => ['error', { patterns }];
const domainFolders = ['accounts', 'billing', 'catalog', 'pipeline', 'providers', 'http', 'payments', 'routing'];

/**
 * Lint, including the architecture rules of STYLE.md §3 and §16: import boundaries between folders, no
 * process.env outside config/, no JSON.parse outside the parsers, no web framework outside http/.
 */
export default tseslint.config(
  { ignores: ['node_modules/**', 'web/dist/**', 'data/**', 'test-artifacts/**', '**/__fixtures__/**'] },
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
    ignores: ['server/src/config/**', 'server/src/simulators/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in server/src/config/config.ts only.' },
      ],
    },
  },
  {
    files: [
      'server/src/pipeline/**/*.ts',
      'server/src/billing/**/*.ts',
      'server/src/accounts/**/*.ts',
      'server/src/catalog/**/*.ts',
      'server/src/db/**/*.ts',
      'server/src/http/**/*.ts',
      'server/src/routing/**/*.ts',
      'server/src/providers/**/*.ts',
    ],
    ignores: ['server/src/providers/shared/**', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in server/src/config/config.ts only.' },
        {
          object: 'JSON',
          property: 'parse',
          message: 'Parse untrusted JSON in providers/shared or openai-api/ parsers.',
        },
      ],
    },
  },
  {
    files: ['server/src/providers/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/db/**', '**/billing/**', '**/http/**', '**/accounts/**', '**/catalog/**', '**/pipeline/**'],
          message: 'providers/ never imports db, billing, http or the pipeline (STYLE.md §3).',
        },
        { group: ['fastify', '@fastify/*'], message: 'Only http/ imports the web framework.' },
      ]),
    },
  },
  {
    files: ['server/src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: domainFolders.map((folder) => `**/${folder}/**`),
          message: 'db/ imports no domain folder (STYLE.md §3).',
        },
        { group: ['fastify', '@fastify/*'], message: 'Only http/ imports the web framework.' },
      ]),
    },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/http/**', 'server/src/app.ts', 'server/src/db/**', 'server/src/providers/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['fastify', '@fastify/*'], message: 'Only http/ (and app.ts) import the web framework.' },
        { group: ['pg', 'node:sqlite'], message: 'Only db/ imports database drivers.' },
      ]),
    },
  },
  {
    files: ['server/src/pipeline/**/*.ts', 'server/src/billing/**/*.ts', 'server/src/accounts/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/http/**', 'fastify', '@fastify/*'], message: 'The pipeline and domain code never import http/.' },
        { group: ['pg', 'node:sqlite'], message: 'Only db/ imports database drivers.' },
      ]),
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/server/**'], message: 'The web app never imports from server/; use contract/.' },
      ]),
    },
  },
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/server/**', '**/web/**'], message: 'contract/ holds schemas only.' },
      ]),
    },
  },
);
