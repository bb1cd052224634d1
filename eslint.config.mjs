import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
