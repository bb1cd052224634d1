import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries (README, "Architecture"): a module reads another's tables only through what that
 * module's public.ts exports (read-only views, repository functions, row types), never by importing
 * its tables.ts or repository.ts (nor a sub-folder's, nor a `*.repository.ts`). `up` is how many
 * `../` leave the importing file's module, so a sub-folder still reaches its own module's files.
 */
const internalsOfAnotherModule = (up) => ({
  regex: `^(\\.\\./){${up}}[a-z-]+/(.+/)?([a-z-]+\\.)?(tables|repository)$`,
  message: "Another module's tables and repository are its own: import what its public.ts exports.",
});
const boundaries = (up) => ({ rules: { 'no-restricted-imports': ['error', { patterns: [internalsOfAnotherModule(up)] }] } });

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'coverage/', 'data/', 'drizzle/', 'clients/typescript/dist/', 'clients/typescript/src/schema.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/platform/config.ts.' },
      ],
    },
  },
  {
    files: ['src/platform/config.ts', 'test/**/*.ts', 'bench/**/*.ts', 'drizzle.config.ts', 'jest.config.js', 'scripts/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  { files: ['src/modules/*/*.ts'], ...boundaries(1) },
  { files: ['src/modules/*/*/*.ts'], ...boundaries(2) },
  { files: ['src/modules/*/*/*/*.ts'], ...boundaries(3) },
  // A table's foreign keys name the referenced module's table: schema definitions, not reads.
  { files: ['src/modules/**/tables.ts'], rules: { 'no-restricted-imports': 'off' } },
  /**
   * Length (issue 48, item 7): a file fits in one read, a function in one screen. Blank lines and
   * comments do not count, so explaining never costs a split. Line length is Prettier's.
   * Tests keep the file cap at a higher figure and have no function cap: a `describe` callback is a
   * list of cases rather than logic, and fixtures with hand-computed expectations are long by nature.
   */
  {
    files: ['src/**/*.ts', 'jobs/**/*.ts', 'workers/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }], 'max-lines-per-function': 'off' },
  },
  // A module's routes.ts registers its routes: one declaration per route (path, schemas, description), a list
  // like a test's cases, so its register function has no length cap; the handlers stay one line each.
  {
    files: ['src/modules/**/routes.ts', 'src/modules/**/routes.*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
