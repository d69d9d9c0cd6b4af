/**
 * script-entry.ts is the one resolver of engine scripts: compiled JS when it exists, else the TypeScript source
 * through tsx — for a forked child (tsx as an absolute --import) and a worker thread (tsx's API) alike.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scriptEntry, startThread, type ScriptEntry } from '../../../src-main/platform/script-entry.js';

const dir = mkdtempSync(join(tmpdir(), 'voxdesk-script-entry-'));
const caller = pathToFileURL(join(dir, 'caller.js')).href;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Type annotations make the .ts source fail as plain JavaScript: it runs only through tsx.
writeFileSync(join(dir, 'child-script.ts'), "const answer: string = 'from ts';\nprocess.send!(answer, () => process.exit(0));\n");
writeFileSync(join(dir, 'thread-script.ts'), "import { parentPort } from 'node:worker_threads';\nconst answer: string = 'from ts';\nparentPort!.postMessage(answer);\n");

function childSays(entry: ScriptEntry): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = fork(entry.path, [], { execArgv: entry.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`exited ${code} before answering`)));
  });
}

async function threadSays(entry: ScriptEntry): Promise<unknown> {
  const worker = startThread(entry, {});
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe('scriptEntry', () => {
  it('picks the TypeScript source with tsx as an absolute loader URL when no compiled script exists', () => {
    const entry = scriptEntry('child-script', caller);
    expect(entry).toMatchObject({ path: join(dir, 'child-script.ts'), compiled: false });
    expect(entry.execArgv[0]).toBe('--import');
    expect(entry.execArgv[1]).toMatch(/^file:\/\/.*node_modules\/tsx\//);
  });

  it('runs the source in a forked child and in a worker thread', async () => {
    expect(await childSays(scriptEntry('child-script', caller))).toBe('from ts');
    expect(await threadSays(scriptEntry('thread-script', caller))).toBe('from ts');
  });

  it('prefers the compiled script, run without a loader', async () => {
    writeFileSync(join(dir, 'child-script.js'), "process.send('from js', () => process.exit(0));\n");
    writeFileSync(join(dir, 'thread-script.js'), "require('node:worker_threads').parentPort.postMessage('from js');\n");
    const child = scriptEntry('child-script', caller);
    expect(child).toEqual({ path: join(dir, 'child-script.js'), execArgv: [], compiled: true });
    expect(await childSays(child)).toBe('from js');
    expect(await threadSays(scriptEntry('thread-script', caller))).toBe('from js');
  });
});
