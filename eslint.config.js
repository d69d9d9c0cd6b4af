// Layers (design.md §2): common ← store, engines, jobs ← service ← app. Only app imports electron; only the
// player imports naudiodon; common imports nothing from node so the renderer can share it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'events', 'stream', 'url'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'src-renderer/dist/**', 'release/**', 'test-artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Svelte components of the renderer: parsed by svelte-eslint-parser with TypeScript inside <script lang="ts">.
  ...svelte.configs.recommended,
  {
    files: ['src-renderer/**/*.svelte', 'src-renderer/**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
    // Types (and so undefined names) are checked by svelte-check, as typescript-eslint advises for TS code.
    rules: { 'no-undef': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src-main/common/**/*.ts'],
    rules: restrict([
      { group: nodeBuiltins, message: 'common/ is shared with the renderer: no node imports.' },
      { group: ['**/store/**', '**/engines/**', '**/jobs/**', '**/service/**', '**/app/**', '**/cli/**'], message: 'common/ depends on nothing.' },
      { group: ['electron', 'naudiodon'], message: 'Only app/ imports electron.' },
    ]),
  },
  {
    files: ['src-main/store/**/*.ts', 'src-main/engines/**/*.ts', 'src-main/jobs/**/*.ts'],
    rules: restrict([
      { group: ['**/service/**', '**/app/**', '**/cli/**'], message: 'Lower layers do not import service, app or cli.' },
      { group: ['electron', 'naudiodon'], message: 'Only app/ imports electron; only the player imports naudiodon.' },
    ]),
  },
  {
    files: ['src-main/service/**/*.ts', 'src-main/cli/**/*.ts'],
    rules: restrict([
      { group: ['**/app/**'], message: 'service and cli do not import the Electron shell.' },
      { group: ['electron', 'naudiodon'], message: 'Only app/ imports electron; only the player imports naudiodon.' },
    ]),
  },
  {
    files: ['src-main/app/**/*.ts'],
    ignores: ['src-main/app/player/**'],
    rules: restrict([{ group: ['naudiodon'], message: 'Only the player module imports naudiodon.' }]),
  },
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.svelte'],
    rules: restrict([
      { group: nodeBuiltins, message: 'The renderer runs in a sandbox: no node imports.' },
      { group: ['electron', 'naudiodon'], message: 'The renderer only shares src-main/common.' },
      // Shared code comes in through the $common alias (src-renderer/aliases.ts), and only from src-main/common.
      { regex: '(^|/)src-main(/|$)', message: 'Import shared code as $common/…: the renderer only shares src-main/common.' },
      { regex: '^\\$common/(.*/)?\\.\\.(/|$)', message: '$common/… stays inside src-main/common.' },
    ]),
  },
  {
    files: ['bin/**/*.js', 'eslint.config.js', 'scripts/**/*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
