// @ts-check
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// Not type-aware on purpose: linting stays fast; `tsc --noEmit` does the type checking.
export default defineConfig(
  {
    ignores: [
      // The package build (scripts/build.ts) and the playground's (vite build).
      'dist/',
      'dist-site*/',
      // Consumer projects the consumer tests make (test/consumers/).
      '.consumers/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
      // The Chromium bench site's build (bench/browser.ts).
      'bench/.build/',
      '**/.vite/',
      // What Hardhat builds from the fixture (test/cli/hardhat.test.ts).
      'test/cli/hardhat-project/artifacts/',
      'test/cli/hardhat-project/cache/',
      // Throwaway experiments, never shipped.
      '.scratch/',
      // Build outputs copied into the site root (e.g. the service worker script).
      'public/**/*.js',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@ethereumjs/util',
              importNames: ['bytesToHex'],
              message: "Use src/core/hexText.ts's bytesToHex: ethereumjs' makes ropes that cost every JSON.stringify and postMessage again.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
  },
  {
    // The Hardhat project fixture: CommonJS, as Hardhat 2 projects are, with mocha's globals.
    files: ['test/cli/hardhat-project/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.mocha } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
)
