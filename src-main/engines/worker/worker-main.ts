/**
 * Worker process entry: runs one EngineTask at a time, in the order they arrive (the pool may send cheap tasks ahead:
 * they wait in line, and one cancelled while it waits ends at once without running), caches engines across tasks, reports WorkerMessage's to the
 * pool (over IPC when forked, over the parent port in an Electron utility process: parent-link.ts), its log lines
 * too; stdout and stderr carry only what native code prints (the pool appends them to workers.log).
 */
import { mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CANCELLED_MESSAGE, JobError, jobFailureOf } from '../../common/errors.js';
import { loadEngineFactory } from '../engine-registry.js';
import type { Engine, EngineKind, EngineTask, ParentMessage, WorkerMessage } from '../engine-types.js';
import { lowerThisProcess } from '../../platform/background-priority.js';
import { parentLink } from './parent-link.js';
import { createLog } from '../../common/log.js';

// Engines write artifacts into the private data dir: files 0600, folders 0700 (store/private-files.ts).
process.umask(0o077);
// Jobs run behind the service's answers and live work (platform/background-priority.ts).
lowerThisProcess();

const engines = new Map<EngineKind, Promise<Engine>>();
const running = new Map<string, AbortController>();
/** Aborted by the first task: warming stops between two pieces of work instead of keeping the task waiting. */
const warming = new AbortController();
/** Tasks sent ahead, waiting for the one that runs. */
const line: EngineTask[] = [];
let busy = false;
const parent = parentLink();
/**
 * This process's log: each line goes to the pool, which writes it into the service's Log (one place for a person or a
 * cluster's collector to read); a job's lines are scoped by its id. Only what native code prints reaches stderr
 * (workers.log).
 */
const log = createLog((entry) => {
  try {
    parent.send({ type: 'log', level: entry.level, scope: entry.scope, message: entry.message, ...(entry.fields ? { fields: entry.fields } : {}) } satisfies WorkerMessage);
  } catch {
    // A line that cannot travel (fields that cannot be cloned, the pool gone) is lost; the engine's work is not.
  }
});

/**
 * Each message goes at once, results too: a result held back to travel with the next one would be lost if the next
 * task crashed this process, and the pool would then blame the task that had in fact finished.
 */
function send(message: WorkerMessage): void {
  parent.send(message);
}

function engineFor(kind: EngineKind): Promise<Engine> {
  let engine = engines.get(kind);
  if (!engine) {
    engine = loadEngineFactory(kind).then((factory) => factory());
    engines.set(kind, engine);
    engine.catch(() => engines.delete(kind));
  }
  return engine;
}

/**
 * The job's folder, empty: leftovers of an interrupted attempt are removed first. Usually there are none, and one
 * mkdir is all it takes. Synchronous: this process runs one task at a time, and each asynchronous call was a round
 * trip through libuv's thread pool (three per task, about a third of a worker's CPU per trivial job,
 * bench/jobs-throughput.ts).
 */
function prepareWorkDir(workDir: string): void {
  try {
    mkdirSync(workDir, { mode: 0o700 });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOENT') throw error; // ENOENT: the artifacts folder itself is not there yet
  }
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
}

/** Removes the job's folder if the engine left it empty (an engine that left scratch files keeps them: harmless). */
function removeIfEmpty(workDir: string): void {
  try {
    rmdirSync(workDir);
  } catch {
    // not empty, or gone already
  }
}

/**
 * A task on a range of its recording (EngineInput.range) runs on that range cut out into the job's folder: the
 * engine sees an ordinary recording of the range's length. Answers the task to run and the cut file to remove.
 */
async function withRange(task: EngineTask, signal: AbortSignal): Promise<{ task: EngineTask; cut: string | null }> {
  const { range, filePath } = task.input;
  if (!range || !filePath) return { task, cut: null };
  const cut = join(task.workDir, '.range.wav');
  // Loaded here, not at start: decoding's modules cost a worker ~25 ms of start-up that a speech job never needs.
  const { cutRange } = await import('../audio/range-cut.js');
  await cutRange(filePath, range, cut, signal);
  return { task: { ...task, input: { ...task.input, filePath: cut, range: undefined, fileRoot: undefined } }, cut };
}

async function run(given: EngineTask): Promise<void> {
  const controller = new AbortController();
  running.set(given.jobId, controller);
  let cut: string | null = null;
  try {
    const loading = engineFor(given.engine);
    prepareWorkDir(given.workDir);
    const ranged = await withRange(given, controller.signal);
    cut = ranged.cut;
    const task = ranged.task;
    const engine = await loading;
    const output = await engine.run(task, {
      signal: controller.signal,
      progress: (progress) => send({ type: 'progress', jobId: task.jobId, progress }),
      measured: (durationSeconds) => send({ type: 'measured', jobId: task.jobId, durationSeconds }),
      segment: (segment, progress) => send({ type: 'segment', jobId: task.jobId, segment, progress }),
      log: log.child(task.jobId),
      engine: engineFor,
      ...(task.streamAudio ? { audio: (bytes: Uint8Array) => send({ type: 'audio', jobId: task.jobId, bytes }) } : {}),
    });
    if (cut) rmSync(cut, { force: true });
    if (controller.signal.aborted) send({ type: 'failed', jobId: task.jobId, code: 'cancelled', message: CANCELLED_MESSAGE });
    else {
      // Nothing to keep: no empty folder per job.
      if (output.artifacts.length === 0) removeIfEmpty(task.workDir);
      send({ type: 'done', jobId: task.jobId, output });
    }
  } catch (error) {
    if (cut) rmSync(cut, { force: true });
    const failure = jobFailureOf(error);
    if (!(error instanceof JobError)) log.child(given.jobId).error(error instanceof Error ? (error.stack ?? failure.message) : failure.message);
    send({ type: 'failed', jobId: given.jobId, ...failure, ...(controller.signal.aborted ? { code: 'cancelled' as const } : {}) });
  } finally {
    running.delete(given.jobId);
  }
}

/** Loads and warms engines ahead of jobs; a failure is left for the first job of that engine to report. */
async function warm(kinds: EngineKind[]): Promise<void> {
  await Promise.all(
    kinds.map(async (kind) => {
      try {
        if (!warming.signal.aborted) await (await engineFor(kind)).warm?.(warming.signal);
      } catch (error) {
        log.warn(`warming ${kind} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  send({ type: 'warmed' });
}

/** Runs the tasks in line one after the other. */
async function drain(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    for (let task = line.shift(); task; task = line.shift()) await run(task);
  } finally {
    busy = false;
  }
}

function cancel(jobId: string): void {
  const waiting = line.findIndex((task) => task.jobId === jobId);
  if (waiting >= 0) {
    line.splice(waiting, 1);
    send({ type: 'failed', jobId, code: 'cancelled', message: CANCELLED_MESSAGE });
  } else running.get(jobId)?.abort();
}

parent.onMessage((raw) => receive(raw as ParentMessage));

function receive(message: ParentMessage): void {
  if (message.type === 'batch') {
    for (const one of message.messages) receive(one);
  } else if (message.type === 'run') {
    warming.abort();
    line.push(message.task);
    void drain();
  } else if (message.type === 'cancel') cancel(message.jobId);
  else if (message.type === 'warm') void warm(message.engines);
}

// The service went away (even kill -9): nobody will read results, so do not linger as an orphan.
parent.onParentGone(() => {
  for (const engine of engines.values()) void engine.then((e) => e.dispose?.()).catch(() => {});
  process.exit(0);
});

send({ type: 'ready', pid: process.pid });
