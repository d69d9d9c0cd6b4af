#!/usr/bin/env node
// A checkout runs the TypeScript sources through tsx (never a stale build); an install without sources runs dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src-main', 'cli', 'main.ts');
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(join(root, 'dist', 'src-main', 'cli', 'main.js')).href);
}
