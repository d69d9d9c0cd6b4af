/**
 * Watch folders in a cluster: two API nodes on one PostgreSQL database, one shared watched folder. One node at a time
 * watches it (the store's `watch-folders` role, a session advisory lock), so a new file is queued once, not once per
 * node; the other node lists the folder as watched elsewhere. When the owner is killed, the other node takes the role
 * over and watches from where the records say the folder stands: the next file is queued, the earlier one not again.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiNode, stopNode, type NodeProcess } from '../../helpers/cluster.js';
import { Client } from '../../helpers/http-client.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { requireCommand, SHARED } from '../../helpers/system.js';
import { waitFor } from '../../helpers/two-instances.js';
import { folderStatus, saveFolders } from '../../helpers/watch-folders.js';
import { scaled } from '../../helpers/time-scale.js';

const KEY = 'vdk_cluster_test_administering_key_0002';
const JFK = join(SHARED, 'audio/jfk.wav');
// Another recording: a copy of the first would be skipped as a duplicate of it.
const OTHER = join(SHARED, 'audio/noisy/silero-test.wav');

let db: TestDatabase;
let sql: pg.Pool;
let storage: string;
let watched: string;
let nodes: NodeProcess[] = [];

const jobsNamed = async (name: string): Promise<number> => Number((await sql.query<{ n: string }>('SELECT COUNT(*) AS n FROM jobs WHERE name = $1', [name])).rows[0]!.n);

beforeAll(async () => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  db = await createTestDatabase('watch-owner');
  sql = new pg.Pool({ connectionString: db.url, max: 2 });
  storage = mkdtempSync(join(tmpdir(), 'voxdesk-cluster-storage-'));
  watched = mkdtempSync(join(tmpdir(), 'voxdesk-cluster-watched-'));
  const common = { databaseUrl: db.url, storageDir: storage, apiKey: KEY };
  // The first node creates the schema and takes the role; the second finds it taken.
  nodes = [await startApiNode(common)];
  nodes.push(await startApiNode(common));
}, scaled(120_000));

afterAll(async () => {
  await Promise.all(nodes.map((node) => stopNode(node)));
  await sql?.end();
  await db?.drop();
  for (const dir of [storage, watched]) if (dir) rmSync(dir, { recursive: true, force: true });
}, scaled(60_000));

describe('watch folders on a cluster of two API nodes', () => {
  it('are watched by one node at a time, and by the other once the first is gone', async () => {
    const [first, second] = nodes.map((node) => new Client(node.url, KEY)) as [Client, Client];
    // Saved through the node that does not watch: the owner reads the list and starts watching it.
    await saveFolders(second, [{ path: watched, model: 'pocketsphinx-en-us', formats: ['txt'] }]);
    await waitFor('the first node watches the folder', async () => ((await folderStatus(first, watched)).status.state === 'watching' ? true : undefined), scaled(60_000));
    expect((await folderStatus(second, watched)).status.state).toBe('elsewhere');

    copyFileSync(JFK, join(watched, 'first.wav'));
    await waitFor('first.wav queued', async () => ((await jobsNamed('first.wav')) > 0 ? true : undefined), scaled(60_000));
    // Another few seconds: had both nodes watched, the second would have queued it too by now.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await jobsNamed('first.wav')).toBe(1);

    nodes[0]!.child.kill('SIGKILL');
    await nodes[0]!.exited;
    await waitFor('the second node takes the folder over', async () => ((await folderStatus(second, watched)).status.state === 'watching' ? true : undefined), scaled(60_000));
    copyFileSync(OTHER, join(watched, 'second.wav'));
    await waitFor('second.wav queued', async () => ((await jobsNamed('second.wav')) > 0 ? true : undefined), scaled(60_000));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await jobsNamed('second.wav')).toBe(1);
    expect(await jobsNamed('first.wav')).toBe(1);
    expect((await folderStatus(second, watched)).status.files_queued + (await folderStatus(second, watched)).status.files_done).toBeGreaterThanOrEqual(2);
  }, scaled(240_000));
});
