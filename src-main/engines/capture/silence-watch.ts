/**
 * The warning a meeting recording needs most: one side has said nothing for a minute while the other talks — the
 * headset was unplugged, the microphone is muted, the call plays through another output than the one recorded.
 * Measured in audio time (samples of the aligned sides, not the wall clock), in blocks of 100 ms: a block is sound
 * when its RMS is above -50 dBFS. A side is "silent" once it had no sound for `silentSeconds` while the other side
 * had sound in at least a tenth of that time; the warning is raised once per silent stretch and cleared when that
 * side is heard again.
 */

export interface SilenceWatchOptions {
  sampleRate: number;
  /** How long one side may be silent while the other talks. Default 60 s. */
  silentSeconds?: number;
}

export type SilenceEvent = { type: 'silent'; side: 0 | 1; seconds: number } | { type: 'heard'; side: 0 | 1 };

/** RMS above which a 100 ms block counts as sound: -50 dBFS (a room's noise floor through a real microphone is above it; a muted or dropped device is far below). */
export const SOUND_RMS = 10 ** (-50 / 20);
export const DEFAULT_SILENT_SECONDS = 60;

export class SilenceWatch {
  private readonly blockSamples: number;
  private readonly silentBlocks: number;
  /** Blocks since each side was last heard. */
  private readonly quietFor: [number, number] = [0, 0];
  /** Per side: 1 for each recent block with sound, newest last (the last silentBlocks). */
  private readonly recent: [number[], number[]] = [[], []];
  private readonly warned: [boolean, boolean] = [false, false];
  private readonly sumSq: [number, number] = [0, 0];
  private readonly count: [number, number] = [0, 0];

  constructor(private readonly options: SilenceWatchOptions) {
    this.blockSamples = Math.round(options.sampleRate / 10);
    this.silentBlocks = Math.round((options.silentSeconds ?? DEFAULT_SILENT_SECONDS) * 10);
  }

  /** The two sides' aligned samples (equal lengths); returns what changed. */
  feed(microphone: Buffer, system: Buffer): SilenceEvent[] {
    const events: SilenceEvent[] = [];
    const samples = Math.min(microphone.length, system.length) >> 1;
    for (let i = 0; i < samples; i++) {
      for (const side of [0, 1] as const) {
        const v = (side === 0 ? microphone : system).readInt16LE(i * 2) / 32768;
        this.sumSq[side] += v * v;
        this.count[side] += 1;
      }
      if (this.count[0] >= this.blockSamples) events.push(...this.block());
    }
    return events;
  }

  /** Whether a side is currently reported silent. */
  isSilent(side: 0 | 1): boolean {
    return this.warned[side];
  }

  private block(): SilenceEvent[] {
    const sound = [0, 1].map((s) => Math.sqrt(this.sumSq[s as 0 | 1] / this.count[s as 0 | 1]) > SOUND_RMS) as [boolean, boolean];
    this.sumSq[0] = this.sumSq[1] = 0;
    this.count[0] = this.count[1] = 0;
    const events: SilenceEvent[] = [];
    for (const side of [0, 1] as const) {
      const recent = this.recent[side];
      recent.push(sound[side] ? 1 : 0);
      if (recent.length > this.silentBlocks) recent.shift();
      if (sound[side]) {
        this.quietFor[side] = 0;
        if (this.warned[side]) {
          this.warned[side] = false;
          events.push({ type: 'heard', side });
        }
      } else this.quietFor[side] += 1;
    }
    for (const side of [0, 1] as const) {
      const other = this.recent[(1 - side) as 0 | 1];
      const otherTalked = other.reduce((a, b) => a + b, 0) >= this.silentBlocks / 10;
      if (!this.warned[side] && this.quietFor[side] >= this.silentBlocks && otherTalked) {
        this.warned[side] = true;
        events.push({ type: 'silent', side, seconds: this.quietFor[side] / 10 });
      }
    }
    return events;
  }
}
