/**
 * Which language a transcription is in, when the caller asked the recognizer to find out (language auto):
 * - `multilingual: false` (the spec's default for Whisper): the language heard in the first
 *   `language_detection_segments` spoken segments — the one said longest — is kept for the rest of the recording, as
 *   faster-whisper does; a run resumed after a restart keeps the language its last committed segment had.
 * - `multilingual: true`: every segment is recognised with its own detection (sherpa-onnx detects per decode).
 * - Nothing spoken at all: the recognizer still names a language for the first 30 s of the audio (Whisper and
 *   SenseVoice always do), so the result has the detected language rather than none (issue 32, point 1).
 */
import { ASR_SAMPLE_RATE } from '../audio/decode.js';

/** Audio kept from the start of a recording for detecting its language when no segment was spoken. Default 30 s. */
export const DETECTION_SECONDS = 30;

/** Language code from a result's `lang` ("<|en|>", "en", "<|EN|>"), or null. */
export function languageOf(lang: string | undefined): string | null {
  const code = (lang ?? '').replace(/[<|>]/g, '').trim().toLowerCase();
  return code === '' ? null : code;
}

/** Decides, segment after segment, whether the language is settled (see above). */
export class LanguageLock {
  private readonly heard = new Map<string, number>();
  private spoken = 0;
  private locked: string | null;

  constructor(
    private readonly active: boolean,
    private readonly segments: number,
    /** The language of a resumed run's last committed segment, when the lock applies. */
    resumed: string | null,
    private readonly known: readonly string[],
  ) {
    this.locked = active && resumed && known.includes(resumed) ? resumed : null;
  }

  /** The language to recognise with next: the settled one, or null to detect. */
  get language(): string | null {
    return this.locked;
  }

  /** Records what a segment recognised while detecting; settles the language once enough segments were spoken. */
  heardIn(language: string | null, text: string, seconds: number): void {
    if (!this.active || this.locked || !language || text.trim() === '' || !this.known.includes(language)) return;
    this.heard.set(language, (this.heard.get(language) ?? 0) + seconds);
    if (++this.spoken < this.segments) return;
    let most = -1;
    for (const [code, total] of this.heard) if (total > most) [this.locked, most] = [code, total];
  }
}

/** Keeps the first DETECTION_SECONDS of the blocks going through, for a detection on silence. */
export class RecordingHead {
  private readonly parts: Float32Array[] = [];
  private kept = 0;
  private readonly limit = DETECTION_SECONDS * ASR_SAMPLE_RATE;

  add(block: Float32Array): void {
    if (this.kept >= this.limit) return;
    const part = block.subarray(0, this.limit - this.kept);
    this.parts.push(part.slice());
    this.kept += part.length;
  }

  samples(): Float32Array {
    const out = new Float32Array(this.kept);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}
