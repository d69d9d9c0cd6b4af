/**
 * Renderer build: Svelte 5 + Vite. Output src-renderer/dist, relative asset paths (served from app://voxdesk in
 * Electron and by `voxdesk serve --ui`).
 */
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
// This file is build configuration run by Node, not renderer code: the sandbox import rule does not apply.
// eslint-disable-next-line no-restricted-imports
import { fileURLToPath } from 'node:url';
import { RENDERER_ALIASES } from './aliases.js';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [svelte()],
  resolve: { alias: RENDERER_ALIASES },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Electron 38 ships Chromium 140; browser mode targets current Chromium/Firefox/Safari.
    target: 'es2022',
    sourcemap: false,
  },
  server: { port: 5173, strictPort: false },
});
