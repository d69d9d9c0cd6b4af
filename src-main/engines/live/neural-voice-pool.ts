/**
 * One child process per neural voice model, shared by the live sessions that use it (the model loads once),
 * started by a ProcessLauncher (child_process.fork by default; Electron's utilityProcess in the app).
 * A zero-shot model (ZipVoice, Pocket TTS) speaking saved cloned voices is one child too (cloned-voice-child.ts),
 * shared by every session and every voice of it: each sentence carries its voice's recording.
 * A child that dies fails its sentences with `engine_crashed`; the next session starts a new one.
 */
import { ApiError, JobError } from '../../common/errors.js';
import type { ModelDefinition } from '../model-definition.js';
import { scriptEntry } from '../../platform/script-entry.js';
import { sherpaConfigOf } from '../tts/sherpa-tts-engine.js';
import { forkLauncher, type LaunchedChild, type ProcessLauncher } from '../worker/process-launcher.js';
import type { LiveVoice, SentenceHandle } from './live-synth.js';
import type { ChildReply, ChildRequest } from './neural-voice-child.js';
import type { ClonedChildRequest, LiveReference } from './cloned-voice-child.js';
import type { VoiceRecipe } from '../tts/design/voice-recipe.js';
import type { Log } from '../../common/log.js';
import { readCloningConfig } from '../cloning/cloning-engine.js';

/** How long a voice may take to load before the session is refused. Default 60 s. */
export const NEURAL_LOAD_TIMEOUT_MS = 60_000;

interface Pending {
  onSamples(samples: Int16Array): void;
  resolve(): void;
  reject(error: Error): void;
}

interface Child {
  process: LaunchedChild;
  /** Settles when the process has ended. */
  ended: Promise<void>;
  ready: Promise<{ sampleRate: number; numSpeakers: number }>;
  pending: Map<number, Pending>;
}

export class NeuralVoicePool {
  private readonly children = new Map<string, Child>();
  private nextId = 1;

  constructor(
    private readonly log: Log,
    private readonly launcher: ProcessLauncher = forkLauncher,
  ) {}

  /** `design`: speak a saved designed voice (its recipe; its voices file made in `cacheDir` by the child). */
  async voice(model: ModelDefinition, speaker: number, design?: { recipe: VoiceRecipe; cacheDir: string }): Promise<LiveVoice> {
    const config = sherpaConfigOf(model.engineConfig);
    // Every designed voice of a model shares one child and its one load (a bank of speaker slots, neural-voice-child.ts).
    const key = `${model.id}\n${JSON.stringify(config.model)}${design ? '\ndesigned' : ''}`;
    const child = this.childFor(key, 'neural-voice-child', model.id, { type: 'load', config, ...(design ? { design } : {}) });
    const info = await this.loaded(model, child);
    if (!design && speaker >= Math.max(1, info.numSpeakers)) {
      throw new ApiError('invalid_params', `speaker must be 0–${Math.max(1, info.numSpeakers) - 1} for ${model.id}`);
    }
    return this.liveVoice(child, info, (id, text, speed) => ({ type: 'speak', id, text, speaker, speed, ...(design ? { recipe: design.recipe } : {}) }));
  }

  /** Speaks in a saved cloned voice (its recording and words) with a zero-shot model, sentence by sentence. */
  async clonedVoice(model: ModelDefinition, reference: LiveReference): Promise<LiveVoice> {
    const config = readCloningConfig(model.engineConfig);
    const child = this.childFor(`${model.id}\n${JSON.stringify(config.model)}`, 'cloned-voice-child', model.id, { type: 'load', config });
    const info = await this.loaded(model, child);
    return this.liveVoice(child, info, (id, text, speed) => ({ type: 'speak', id, text, speed, reference }));
  }

  /** Child processes running (for diagnostics and tests: voices that share a model load share one). */
  running(): number {
    return this.children.size;
  }

  private async loaded(model: ModelDefinition, child: Child): Promise<{ sampleRate: number; numSpeakers: number }> {
    try {
      return await child.ready;
    } catch (error) {
      throw new ApiError('model_unavailable', `the voice ${model.id} could not be loaded: ${(error as Error).message}`);
    }
  }

  private liveVoice(child: Child, info: { sampleRate: number }, speakRequest: (id: number, text: string, speed: number) => ChildRequest | ClonedChildRequest): LiveVoice {
    return {
      sampleRate: info.sampleRate,
      speakSentence: ({ text, speed, onSamples }): SentenceHandle => {
        const id = this.nextId++;
        const done = new Promise<void>((resolve, reject) => {
          child.pending.set(id, { onSamples, resolve, reject });
        });
        this.send(child, speakRequest(id, text, speed));
        return { done, cancel: () => this.send(child, { type: 'cancel', id }) };
      },
    };
  }

  async close(): Promise<void> {
    const exits = [...this.children.values()].map((child) => {
      child.process.kill();
      return child.ended;
    });
    this.children.clear();
    await Promise.all(exits);
  }

  private send(child: Child, request: ChildRequest | ClonedChildRequest): void {
    child.process.send(request);
  }

  /** The child running `script` under `key`, started with `load` when there is none. */
  private childFor(key: string, script: 'neural-voice-child' | 'cloned-voice-child', label: string, load: ChildRequest | ClonedChildRequest): Child {
    const existing = this.children.get(key);
    if (existing) return existing;
    const entry = scriptEntry(script, import.meta.url);
    const pending = new Map<number, Pending>();
    let readyResolve!: (info: { sampleRate: number; numSpeakers: number }) => void;
    let readyReject!: (error: Error) => void;
    const ready = new Promise<{ sampleRate: number; numSpeakers: number }>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    ready.catch(() => {});
    const timer = setTimeout(() => readyReject(new Error('loading timed out')), NEURAL_LOAD_TIMEOUT_MS);
    let endedResolve!: () => void;
    const ended = new Promise<void>((resolve) => (endedResolve = resolve));
    const onMessage = (reply: ChildReply): void => {
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
          pending.get(reply.id)?.reject(new JobError(reply.code, reply.message));
          pending.delete(reply.id);
          break;
      }
    };
    const onEnded = (how: string): void => {
      clearTimeout(timer);
      readyReject(new Error(`the voice process ${how}`));
      for (const p of pending.values()) p.reject(new JobError('engine_crashed', `the voice process ${how}`));
      pending.clear();
      this.forget(key, child);
      endedResolve();
    };
    const proc = this.launcher(
      {
        modulePath: entry.path,
        execArgv: entry.execArgv,
        output: { text: (chunk) => this.log.info(`[live voice ${label}] ${chunk.trimEnd()}`) },
        name: `voxdesk live voice ${label}`,
      },
      { message: (reply) => onMessage(reply as ChildReply), ended: onEnded },
    );
    const child: Child = { process: proc, ended, ready, pending };
    this.send(child, load);
    this.children.set(key, child);
    return child;
  }

  private forget(key: string, child: Child): void {
    if (this.children.get(key) === child) this.children.delete(key);
  }
}
