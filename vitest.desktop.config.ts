import { defineConfig } from 'vitest/config';

// npm run test:desktop: the real Electron app through Playwright (test/desktop/); not part of npm test, whose Vitest
// config takes only *.test.ts files. Run by .github/workflows/desktop.yml.
export default defineConfig({
  test: {
    include: ['test/desktop/**/*.spec.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
