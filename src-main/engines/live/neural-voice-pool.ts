/**
 * One child process per neural voice model, shared by the live sessions that use it (the model loads once).
 * A child that dies fails its sentences with `engine_crashed`; the next session starts a new one.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { ApiError } from '../../common/errors.js';
import type { ModelDefinition } from '../model-definition.js';
import { scriptEntry } from '../script-entry.js';
import { sherpaConfigOf } from '../tts/sherpa-tts-engine.js';
import { LiveEngineError } from './espeak-thread-pool.js';
import type { LiveVoice, SentenceHandle } from './live-synth.js';
import type { ChildReply, ChildRequest } from './neural-voice-child.js';

/** How long a voice may take to load before the session is refused. Default 60 s. */
export const NEURAL_LOAD_TIMEOUT_MS = 60_000;

interface Pending {
  onSamples(samples: Int16Array): void;
  resolve(): void;
  reject(error: Error): void;
}

interface Child {
  process: ChildProcess;
  ready: Promise<{ sampleRate: number; numSpeakers: number }>;
  pending: Map<number, Pending>;
}

export class NeuralVoicePool {
  private readonly children = new Map<string, Child>();
  private nextId = 1;

  constructor(private readonly log: (message: string) => void) {}

  async voice(model: ModelDefinition, speaker: number): Promise<LiveVoice> {
    const child = this.childFor(model);
    let info: { sampleRate: number; numSpeakers: number };
    try {
      info = await child.ready;
    } catch (error) {
      throw new ApiError('model_unavailable', `the voice ${model.id} could not be loaded: ${(error as Error).message}`);
    }
    if (speaker >= Math.max(1, info.numSpeakers)) {
      throw new ApiError('invalid_params', `speaker must be 0–${Math.max(1, info.numSpeakers) - 1} for ${model.id}`);
    }
    return {
      sampleRate: info.sampleRate,
      speakSentence: ({ text, speed, onSamples }): SentenceHandle => {
        const id = this.nextId++;
        const done = new Promise<void>((resolve, reject) => {
          child.pending.set(id, { onSamples, resolve, reject });
        });
        this.send(child, { type: 'speak', id, text, speaker, speed });
        return { done, cancel: () => this.send(child, { type: 'cancel', id }) };
      },
    };
  }

  async close(): Promise<void> {
    const exits = [...this.children.values()].map(
      (child) => new Promise<void>((resolve) => {
        if (child.process.exitCode !== null || child.process.signalCode !== null) return resolve();
        child.process.once('exit', () => resolve());
        child.process.kill();
      }),
    );
    this.children.clear();
    await Promise.all(exits);
  }

  private send(child: Child, request: ChildRequest): void {
    if (child.process.connected) child.process.send(request);
  }

  private childFor(model: ModelDefinition): Child {
    const config = sherpaConfigOf(model.engineConfig);
    const key = `${model.id}\n${JSON.stringify(config.model)}`;
    const existing = this.children.get(key);
    if (existing) return existing;
    const entry = scriptEntry('neural-voice-child', import.meta.url);
    const proc = fork(entry.path, [], { execArgv: entry.execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    proc.stderr?.on('data', (chunk: Buffer) => this.log(`[live voice ${model.id}] ${chunk.toString().trimEnd()}`));
    const pending = new Map<number, Pending>();
    let readyResolve!: (info: { sampleRate: number; numSpeakers: number }) => void;
    let readyReject!: (error: Error) => void;
    const ready = new Promise<{ sampleRate: number; numSpeakers: number }>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    ready.catch(() => {});
    const timer = setTimeout(() => readyReject(new Error('loading timed out')), NEURAL_LOAD_TIMEOUT_MS);
    const child: Child = { process: proc, ready, pending };
    proc.on('message', (reply: ChildReply) => {
      switch (reply.type) {
        case 'ready':
          clearTimeout(timer);
          readyResolve({ sampleRate: reply.sampleRate, numSpeakers: reply.numSpeakers });
          break;
        case 'load-failed':
          clearTimeout(timer);
          readyReject(new Error(reply.message));
          this.forget(key, child);
          proc.kill();
          break;
        case 'chunk':
          pending.get(reply.id)?.onSamples(reply.samples);
          break;
        case 'done':
          pending.get(reply.id)?.resolve();
          pending.delete(reply.id);
          break;
        case 'error':
          pending.get(reply.id)?.reject(new LiveEngineError(reply.code, reply.message));
          pending.delete(reply.id);
          break;
      }
    });
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      readyReject(new Error(`voice process exited (${signal ?? code})`));
      for (const p of pending.values()) p.reject(new LiveEngineError('engine_crashed', `the voice process stopped (${signal ?? code})`));
      pending.clear();
      this.forget(key, child);
    });
    proc.on('error', (error) => this.log(`live voice ${model.id}: ${error.message}`));
    this.send(child, { type: 'load', config });
    this.children.set(key, child);
    return child;
  }

  private forget(key: string, child: Child): void {
    if (this.children.get(key) === child) this.children.delete(key);
  }
}
