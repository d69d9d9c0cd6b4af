// Floors (docs/design.md §2): common → platform → store → engines → models → jobs → remote → watch → service → app/cli, each importing only the
// floors below it; test/unit/repo/eslint-floors.test.ts proves an upward import fails. Only app imports electron;
// only the player imports naudiodon; common imports nothing from node so the renderer can share it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'events', 'stream', 'url'];
// The floors of src-main, lowest first; app and cli share the top floor (two programs that do not import each other).
const floors = [['common'], ['platform'], ['store'], ['engines'], ['models'], ['jobs'], ['remote'], ['watch'], ['service'], ['app', 'cli']];
const floorNames = floors.flat();
const floorOrder = floors.map((floor) => floor.join('/')).join(' → ');
/** The folders a floor may not import: every floor above it and its sibling on the same floor. */
const notBelow = (name) => floors.slice(floors.findIndex((floor) => floor.includes(name))).flat().filter((n) => n !== name);

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
  // One block per floor: it imports the floors below it, never one above (nor its sibling on the top floor).
  ...floorNames.map((name) => ({
    files: [`src-main/${name}/**/*.ts`],
    rules: restrict([
      ...(name === 'common' ? [{ group: nodeBuiltins, message: 'common/ is shared with the renderer: no node imports.' }] : []),
      ...(notBelow(name).length
        ? [{ group: notBelow(name).map((n) => `**/${n}/**`), message: `Floors import downward only (${floorOrder}): ${name}/ does not import ${notBelow(name).join(', ')}.` }]
        : []),
      name === 'app'
        ? { group: ['naudiodon'], message: 'Only the player module imports naudiodon.' }
        : { group: ['electron', 'naudiodon'], message: 'Only app/ imports electron; only the player imports naudiodon.' },
    ]),
  })),
  {
    // The player is the one module that imports naudiodon; the floor rule of app/ still holds there.
    files: ['src-main/app/player/**/*.ts'],
    rules: restrict([{ group: notBelow('app').map((n) => `**/${n}/**`), message: `Floors import downward only (${floorOrder}): app/ does not import ${notBelow('app').join(', ')}.` }]),
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
  // One way to log (common/log.ts): no console, stderr writes or process warnings in src-main except the sinks that
  // format log lines and the CLI's output for the person (cli/output.ts).
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/common/log-sinks.ts', 'src-main/cli/output.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'console', message: 'Log through the module\'s Log (common/log.ts); a CLI\'s words for the person go through cli/output.ts.' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'stderr', message: 'Log through the module\'s Log (common/log.ts); only its sinks (common/log-sinks.ts) and cli/output.ts write to stderr.' },
        { object: 'process', property: 'emitWarning', message: 'Log a warning through the module\'s Log: log.warn(…).' },
      ],
    },
  },
  // One way to fail (common/errors.ts): ApiError, JobError, PackageError with a code. An error class elsewhere must be
  // caught by type for something other than turning it into a code, and say why in its docblock; these are the ones.
  {
    files: ['src-main/**/*.ts'],
    ignores: [
      'src-main/common/errors.ts',
      'src-main/common/api-client-base.ts', // ApiClientError: a service's answer on the client side (status, code), retried on by status
      'src-main/engines/worker/worker-pool.ts', // WorkerCrashError: the executor retries a job whose worker crashed
      'src-main/remote/remote-errors.ts', // RemoteError: the runner retries or backs off by its kind and status
      'src-main/remote/language-model/language-model-client.ts', // a refused parameter is retried in the corrected dialect
      'src-main/store/secrets/secret-cipher.ts', // SecretUnavailableError: a secret sealed elsewhere reads as not set
      'src-main/store/postgres/migrate.ts', // NewerSchemaError: voxdesk db tells how to upgrade
      'src-main/app/player/player-types.ts', // PlayerError: the player's 'error' event, with the device codes
      'src-main/app/hotkey/text-insertion.ts', // InsertionError: shown as it is, other failures are wrapped
      'src-main/platform/native-addons.ts', // MissingNativeAddonError: its name is the native-addon check's verdict
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ClassDeclaration[superClass.name=/^(Error|ApiError|JobError|PackageError)$/]',
          message: 'Fail with the domain errors of common/errors.ts (ApiError, JobError, PackageError) and a code; a new error class needs a reason to be caught by type (eslint.config.js allow-list).',
        },
      ],
    },
  },
  {
    // A test's, hook's or wait's timeout stretches with the machine's load (test/helpers/time-scale.ts): never a bare number.
    files: ['test/**/*.ts'],
    ignores: ['test/desktop/**', 'test/helpers/time-scale.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.name=/^(it|test|beforeAll|afterAll|beforeEach|afterEach|describe)$/] > Literal[raw=/^[0-9_]+$/]',
          message: 'Write a test or hook timeout as scaled(ms) (test/helpers/time-scale.ts): it stretches on a busy machine.',
        },
        {
          selector: 'Property[key.name=/^timeout(Ms)?$/] > Literal[value>=10000]',
          message: 'Write a wait of 10 s or more as scaled(ms) (test/helpers/time-scale.ts): it stretches on a busy machine.',
        },
        {
          selector: 'CallExpression[callee.name=/^(until\\w*|waitFor\\w*|terminal)$/] > Literal[value>=10000], CallExpression[callee.property.name=/^(until\\w*|waitFor\\w*)$/] > Literal[value>=10000]',
          message: 'Write a wait of 10 s or more as scaled(ms) (test/helpers/time-scale.ts): it stretches on a busy machine.',
        },
        {
          selector: 'AssignmentPattern[left.name=/^(timeoutMs|timeout|ms)$/] > Literal[value>=10000]',
          message: 'Write a default wait of 10 s or more as scaled(ms) (test/helpers/time-scale.ts): it stretches on a busy machine.',
        },
      ],
    },
  },
  {
    files: ['bin/**/*.js', 'eslint.config.js', 'scripts/**/*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
