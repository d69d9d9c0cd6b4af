/**
 * Import aliases of the renderer, for Vite (vite.config.ts), Vitest (../vitest.config.ts) and TypeScript (the
 * `paths` of both tsconfigs say the same). `$common/…` is src-main/common: the only main-process code the renderer
 * shares (eslint.config.js enforces it).
 */
// Build configuration run by Node, not renderer code: the sandbox import rule does not apply.
// eslint-disable-next-line no-restricted-imports
import { fileURLToPath } from 'node:url';

export const RENDERER_ALIASES = { $common: fileURLToPath(new URL('../src-main/common', import.meta.url)) };
