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
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'data/', 'drizzle/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/platform/config.ts.' }],
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
  { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
