import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_STATUSES, JOB_TRANSITIONS, isTerminal, type JobStatus } from '../../../../src-main/common/job-states.js';
import { StateMachine } from '../../../../src-main/jobs/engine/state-machine.js';
import { Views } from '../../../../src-main/jobs/engine/views.js';
import { openDatabase, type Db } from '../../../../src-main/store/database.js';
import { newId } from '../../../../src-main/store/ids.js';
import type { Repositories } from '../../../../src-main/store/repositories.js';
import { createSqliteStore, type SqliteStore } from '../../../../src-main/store/sqlite-store.js';

let dir: string;
let db: Db;
let store: SqliteStore;
/** The file's rows, read and set up synchronously. */
let repos: Repositories;
let machine: StateMachine;
let accountId: string;
const NOW = '2026-06-01T08:00:00.000Z';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voxdesk-states-'));
  db = openDatabase(join(dir, 's.db'));
  store = createSqliteStore(db, join(dir, 's.db'), () => new Date(NOW));
  repos = store.sync;
  machine = new StateMachine(store, () => new Date(NOW), new Views(store.repos, () => 'http://x'), async () => {});
  accountId = repos.accounts.createAccount('s').id;
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function jobIn(status: JobStatus) {
  const id = newId('job');
  const terminal = isTerminal(status);
  repos.jobs.insert({
    id, account_id: accountId, product: 'speech-to-text', model_id: 'm', name: null, language: null, status,
    error_code: status === 'queued' ? 'waiting_for_capacity' : null, error_message: null, params_json: '{}', input_json: '{}',
    duration_seconds: null, result_json: null, progress: null, batch_id: null, attempts: 0, cancel_requested: 0,
    pause_requested: 0,
    claimed_by: status === 'running' ? 'me' : null, lease_expires_at: null, estimated_usd_micro: null, estimated_seconds: null, price_json: null, reserved_usd_micro: null, deadline_at: null,
    created_at: '2026-06-01T07:00:00.000Z', started_at: status === 'running' ? '2026-06-01T07:30:00.000Z' : null,
    finished_at: terminal ? '2026-06-01T07:45:00.000Z' : null, updated_at: '2026-06-01T07:00:00.000Z',
  });
  return repos.jobs.get(id)!;
}

describe('job state table', () => {
  for (const from of JOB_STATUSES) {
    for (const to of JOB_STATUSES) {
      const allowed = JOB_TRANSITIONS[from].includes(to);
      it(`${from} → ${to} is ${allowed ? 'allowed' : 'refused'}`, async () => {
        const row = jobIn(from);
        const attempt = machine.tx((t) => t.transition(row, to));
        if (!allowed) {
          await expect(attempt).rejects.toThrow(`${from} → ${to} is not an allowed transition`);
          expect(repos.jobs.get(row.id)?.status).toBe(from);
          return;
        }
        await attempt;
        const after = repos.jobs.get(row.id)!;
        expect(after.status).toBe(to);
        if (to === 'running') {
          expect(after).toMatchObject({ started_at: NOW, finished_at: null, error_code: null, attempts: 1 });
        } else if (to === 'queued') {
          expect(after).toMatchObject({ started_at: null, finished_at: null, claimed_by: null, progress: null });
        } else {
          expect(after.finished_at).toBe(NOW);
          expect(after.claimed_by).toBeNull();
          if (to === 'succeeded') expect(after.progress).toBe(1);
        }
      });
    }
  }

  it('refuses a write against a stale status', async () => {
    const row = jobIn('queued');
    await machine.tx((t) => t.transition(row, 'cancelled'));
    await expect(machine.tx((t) => t.patch(row, { progress: 0.5 }))).rejects.toThrow(/changed under this transaction/);
  });

  it('emits job-changed after the commit, not for a rolled back transaction', async () => {
    const seen: string[] = [];
    machine.events.on('job-changed', (job) => seen.push(`${job.id}:${job.status}`));
    const a = jobIn('queued');
    await machine.tx((t) => t.transition(a, 'running'));
    const b = jobIn('queued');
    await expect(
      machine.tx(async (t) => {
        await t.transition(b, 'running');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(seen).toEqual([`${a.id}:running`]);
    expect(repos.jobs.get(b.id)?.status).toBe('queued');
  });

  it('keeps the progress of a job with committed segments when it goes back to the queue and starts again', async () => {
    const plain = jobIn('running');
    await machine.tx((t) => t.patch(plain, { progress: 0.4 }));
    await machine.tx((t) => t.transition(repos.jobs.get(plain.id)!, 'queued'));
    expect(repos.jobs.get(plain.id)?.progress).toBeNull(); // nothing to continue from: starts over

    const checkpointed = jobIn('running');
    await machine.tx(async (t) => {
      await t.repos.segments.append({ job_id: checkpointed.id, idx: 0, start_seconds: 0, end_seconds: 9, resume_seconds: 9, text: 'a', words_json: null, language: null, created_at: NOW });
      await t.patch(checkpointed, { progress: 0.4, pause_requested: 1 });
    });
    await machine.tx((t) => t.transition(repos.jobs.get(checkpointed.id)!, 'queued', { error_code: 'paused' }));
    expect(repos.jobs.get(checkpointed.id)).toMatchObject({ progress: 0.4, error_code: 'paused', pause_requested: 0 });
    await machine.tx((t) => t.transition(repos.jobs.get(checkpointed.id)!, 'running'));
    expect(repos.jobs.get(checkpointed.id)).toMatchObject({ progress: 0.4, error_code: null });
  });
});

describe('what a change costs', () => {
  /** A machine of its own (the one above has listeners), counting the views it builds. */
  function counted(): { machine: StateMachine; views: { built: number } } {
    const views = new Views(store.repos, () => 'http://x');
    const counter = { built: 0 };
    const job = views.job.bind(views);
    views.job = (row) => {
      counter.built++;
      return job(row);
    };
    return { machine: new StateMachine(store, () => new Date(NOW), views, async () => {}), views: counter };
  }

  it('builds no view when nobody listens, yet tells the status listener each committed row', async () => {
    const { machine: own, views } = counted();
    const told: string[] = [];
    own.statusListener = (row) => told.push(`${row.id}:${row.status}`);
    const a = jobIn('queued');
    await own.tx((t) => t.transition(a, 'running'));
    expect(views.built).toBe(0);
    expect(told).toEqual([`${a.id}:running`]);
    own.events.on('job-changed', () => {});
    await own.tx((t) => t.transition(repos.jobs.get(a.id)!, 'succeeded'));
    expect(views.built).toBe(1);
  });

  it('a tx inside a tx is a savepoint: rolled back alone, its changes emitted with the outer commit', async () => {
    const { machine: own } = counted();
    const seen: string[] = [];
    own.events.on('job-changed', (job) => seen.push(`${job.id}:${job.status}`));
    const kept = jobIn('queued');
    const undone = jobIn('queued');
    await own.tx(async (t) => {
      await t.tx((inner) => inner.transition(kept, 'running'));
      expect(seen).toEqual([]); // not committed yet
      await expect(
        t.tx(async (inner) => {
          await inner.transition(undone, 'running');
          throw new Error('only this one');
        }),
      ).rejects.toThrow('only this one');
    });
    expect(seen).toEqual([`${kept.id}:running`]);
    expect(repos.jobs.get(kept.id)?.status).toBe('running');
    expect(repos.jobs.get(undone.id)?.status).toBe('queued');
  });

  it('emits the row as written, the same as reading it back', async () => {
    const { machine: own } = counted();
    let emitted: unknown;
    own.events.on('job-changed', (job) => (emitted = job));
    const a = jobIn('running');
    await own.tx((t) => t.patch(a, { progress: 0.25, duration_seconds: '1.500' }));
    expect(emitted).toEqual(await new Views(store.repos, () => 'http://x').job(repos.jobs.get(a.id)!));
  });
});
