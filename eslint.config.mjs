// @ts-check
// ESLint with typescript-eslint's type-checked rules: the bugs this code can have are the
// ones a type checker sees (a promise nobody awaits, a method torn from its object, an
// object printed as "[object Object]" in a failure message, an `any` leaking through),
// not matters of style, which Prettier settles (.prettierrc.json).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      'node_modules/**',
      'reports/**',
      'test-results/**',
      'lib/rule-catalog.ts',
      'lib/rule-ids.ts',
      'lib/seeds/proofs.ts',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    // One program from tsconfig.json (every .ts file is in it) rather than the project service:
    // the whole-tree lint took 50 CPU-s instead of 68 (2026-12-02, Node 22), same findings.
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      // An async function without await is how an interface that may await is met.
      '@typescript-eslint/require-await': 'off',
      // Control characters in patterns are what redaction and frame checks look for.
      'no-control-regex': 'off',
      // Playwright reads a fixture's first parameter as a destructuring pattern; `{}` is how a fixture needs none.
      'no-empty-pattern': 'off',
      // Policies, kits, options and load contexts declare function members in method syntax but are
      // object literals of arrow functions, handed around as values; no class method here reads `this` unbound.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', caughtErrors: 'none', varsIgnorePattern: '^_' },
      ],
    },
  },
);
