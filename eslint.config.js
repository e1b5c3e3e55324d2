import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * ESLint for every workspace: the recommended JavaScript and typescript-eslint rules (syntax only, no type
 * information, so that a run stays fast; tsc checks the types) and, in the console, the rules of hooks.
 */
export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'data/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests read the API's answers loosely (`r.body.data.name`); the product code is typed by the contract.
    files: ['**/*.test.{ts,tsx}', 'apps/*/test/**', 'apps/*/src/test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { self: 'readonly', caches: 'readonly', fetch: 'readonly', URL: 'readonly' } },
  },
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { process: 'readonly' } } },
);
