/**
 * The meeting capture's side of its speaker child (speaker-child.ts): started on the first request, one per capture
 * (and one for a capture saved at the next start), ended with it. CPU stays bounded during a capture: at most one
 * utterance is embedded at a time, and an utterance that finishes while the one before is still being embedded is
 * not embedded at all (`null`: the machine is behind; the live transcript labels it "Other side"). A child that
 * crashes fails what it had in hand; the next request starts a new one.
 */
import { scriptEntry } from '../../platform/script-entry.js';
import type { RecordingVoice } from '../../common/speaker-matching.js';
import type { DiarizationModels, SpeakerTurn } from '../asr/diarization.js';
import { forkLauncher, type LaunchedChild, type ProcessLauncher } from '../worker/process-launcher.js';
import type { SpeakerReply, SpeakerRequest } from './speaker-protocol.js';

interface Pending {
  resolve(reply: SpeakerReply): void;
  reject(error: Error): void;
}

export interface OtherSideSpeakers {
  turns: SpeakerTurn[];
  voices: RecordingVoice[];
}

export class SpeakerProcess {
  private child: LaunchedChild | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private embedding = false;

  constructor(
    private readonly models: DiarizationModels,
    private readonly log: (message: string) => void,
    private readonly launcher: ProcessLauncher = forkLauncher,
  ) {}

  /** One embedding of an utterance (PCM16 mono 16 kHz); null when too short, when the child is busy, or on a failure. */
  async embed(pcm: Uint8Array): Promise<number[] | null> {
    if (this.embedding) return null;
    this.embedding = true;
    try {
      const reply = await this.request((id) => ({ type: 'embed', id, pcm }));
      return reply.type === 'embedded' ? reply.embedding : null;
    } catch (error) {
      this.log(`an utterance of the other side could not be embedded: ${(error as Error).message}`);
      return null;
    } finally {
      this.embedding = false;
    }
  }

  /** Who spoke when on channel `channel` of the recording at `path`, and each speaker's voice. Rejects on a failure. */
  async diarize(path: string, channel: number): Promise<OtherSideSpeakers> {
    const reply = await this.request((id) => ({ type: 'diarize', id, path, channel }));
    if (reply.type !== 'diarized') throw new Error('the speaker process answered out of turn');
    return { turns: reply.turns, voices: reply.voices };
  }

  close(): void {
    this.child?.kill();
    this.child = null;
  }

  private request(make: (id: number) => SpeakerRequest): Promise<SpeakerReply> {
    const id = this.nextId++;
    const child = this.start();
    return new Promise<SpeakerReply>((resolve, reject) => {
      this.pending.set(id, {
        resolve: (reply) => (reply.type === 'failed' ? reject(new Error(reply.message)) : resolve(reply)),
        reject,
      });
      child.send(make(id));
    });
  }

  private start(): LaunchedChild {
    if (this.child) return this.child;
    const entry = scriptEntry('speaker-child', import.meta.url);
    const child = this.launcher(
      {
        modulePath: entry.path,
        execArgv: entry.execArgv,
        output: { text: (chunk) => this.log(`[capture speakers] ${chunk.trimEnd()}`) },
        name: 'voxdesk capture speakers',
      },
      {
        message: (raw) => {
          const reply = raw as SpeakerReply;
          const waiting = this.pending.get(reply.id);
          this.pending.delete(reply.id);
          waiting?.resolve(reply);
        },
        ended: (how) => {
          if (this.child === child) this.child = null;
          const failed = [...this.pending.values()];
          this.pending.clear();
          for (const waiting of failed) waiting.reject(new Error(`the speaker process ${how}`));
        },
      },
    );
    this.child = child;
    child.send({ type: 'load', models: this.models } satisfies SpeakerRequest);
    return child;
  }
}
