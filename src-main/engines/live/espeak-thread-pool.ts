/**
 * A small pool of eSpeak NG worker threads shared by every live session. Requests (one sentence each) wait in one
 * FIFO queue; a thread that dies fails its request with `engine_crashed` and is replaced.
 */
import type { Worker } from 'node:worker_threads';
import type { EspeakVoiceSettings } from '../tts/espeak-synth.js';
import type { ThreadReply, ThreadRequest } from './espeak-thread.js';
import type { LiveVoice, SentenceHandle, SentenceRequest } from './live-synth.js';
import { scriptEntry, startThread } from '../../platform/script-entry.js';
import { ESPEAK_SAMPLE_RATE } from '../tts/espeak-synth.js';
import { JobError } from '../../common/errors.js';

interface Job {
  id: number;
  text: string;
  settings: EspeakVoiceSettings;
  onSamples(samples: Int16Array): void;
  resolve(): void;
  reject(error: JobError): void;
  cancelled: boolean;
}

interface Slot {
  worker: Worker;
  cancel: Int32Array;
  ready: boolean;
  job: Job | null;
}

export class EspeakThreadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;

  constructor(private readonly size: number) {}

  /** A LiveVoice for one eSpeak voice setting (voice, language, speaker, pitch); speed comes per sentence. */
  voice(settings: Omit<EspeakVoiceSettings, 'speed'>): LiveVoice {
    return {
      sampleRate: ESPEAK_SAMPLE_RATE,
      speakSentence: (request) => this.speak(request, settings),
    };
  }

  /** Starts the threads ahead of the first sentence (eSpeak takes ~100 ms to load, and its first sentence is slow). */
  warm(): void {
    while (!this.closed && this.slots.length < this.size) this.addSlot();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new JobError('engine_failed', 'the live service is closing'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private speak(request: SentenceRequest, settings: Omit<EspeakVoiceSettings, 'speed'>): SentenceHandle {
    let job!: Job;
    const done = new Promise<void>((resolve, reject) => {
      job = {
        id: this.nextId++,
        text: request.text,
        settings: { ...settings, speed: request.speed },
        onSamples: request.onSamples,
        resolve,
        reject,
        cancelled: false,
      };
    });
    if (this.closed) {
      job.reject(new JobError('engine_failed', 'the live service is closing'));
    } else {
      this.queue.push(job);
      this.warm();
      this.dispatch();
    }
    return {
      done,
      cancel: () => {
        if (job.cancelled) return;
        job.cancelled = true;
        const queued = this.queue.indexOf(job);
        if (queued >= 0) {
          this.queue.splice(queued, 1);
          job.resolve();
          return;
        }
        const slot = this.slots.find((s) => s.job === job);
        if (slot) Atomics.store(slot.cancel, 0, job.id);
      },
    };
  }

  private addSlot(): void {
    const cancelBuffer = new SharedArrayBuffer(4);
    const worker = startThread(scriptEntry('espeak-thread', import.meta.url), { workerData: { cancel: cancelBuffer } });
    const slot: Slot = { worker, cancel: new Int32Array(cancelBuffer), ready: false, job: null };
    worker.unref();
    worker.on('message', (reply: ThreadReply) => this.onReply(slot, reply));
    const lost = (why: string): void => {
      const index = this.slots.indexOf(slot);
      if (index < 0) return;
      this.slots.splice(index, 1);
      slot.job?.reject(new JobError('engine_crashed', `the speech thread stopped: ${why}`));
      slot.job = null;
      if (!slot.ready && ++this.startFailures >= 2) {
        // Threads that cannot even start would be restarted forever: fail what waits, try again on the next request.
        this.startFailures = 0;
        for (const job of this.queue.splice(0)) job.reject(new JobError('engine_failed', `speech threads cannot start: ${why}`));
        return;
      }
      if (!this.closed && this.queue.length > 0) this.addSlot();
    };
    worker.on('error', (error) => lost(error.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    this.slots.push(slot);
  }

  private onReply(slot: Slot, reply: ThreadReply): void {
    if (reply.type === 'ready') {
      slot.ready = true;
      this.startFailures = 0;
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    if (reply.type === 'chunk') {
      if (!job.cancelled) job.onSamples(reply.samples);
      return;
    }
    slot.job = null;
    if (reply.type === 'done' || job.cancelled) job.resolve();
    else job.reject(new JobError(reply.code, reply.message));
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const request: ThreadRequest = { type: 'speak', id: job.id, text: job.text, settings: job.settings };
      slot.worker.postMessage(request);
    }
  }
}
