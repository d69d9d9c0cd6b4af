import { defineConfig } from 'vitest/config';
import { RENDERER_ALIASES } from './src-renderer/aliases.js';

export default defineConfig({
  // Renderer modules under test import shared code as `$common/…`.
  resolve: { alias: RENDERER_ALIASES },
  test: {
    include: ['test/**/*.test.ts', 'src-main/**/*.test.ts'],
    pool: 'forks',
    // 2-core machines: integration tests start services and worker processes of their own.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
