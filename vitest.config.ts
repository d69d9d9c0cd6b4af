import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { RENDERER_ALIASES } from './src-renderer/aliases.js';
import { scaled } from './test/helpers/time-scale.js';

export default defineConfig({
  // Renderer modules under test import shared code as `$common/…`.
  resolve: { alias: RENDERER_ALIASES },
  plugins: [
    svelte({
      configFile: new URL('./src-renderer/svelte.config.js', import.meta.url).pathname,
      // The renderer's rune modules (`*.svelte.ts`) are compiled as the page runs them, not as server-side rendering
      // (where effects never run), though the tests run under Node.
      dynamicCompileOptions: () => ({ generate: 'client' }),
    }),
  ],
  test: {
    include: ['test/**/*.test.ts', 'src-main/**/*.test.ts'],
    pool: 'forks',
    // 2-core machines: integration tests start services and worker processes of their own.
    maxWorkers: 2,
    // Safety nets for a hang, stretched by the machine's load when the run starts (test/helpers/time-scale.ts).
    testTimeout: scaled(60_000),
    hookTimeout: scaled(120_000),
    expect: { poll: { timeout: scaled(1_000) } },
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
