/**
 * Several designed voices of one Kokoro in one model load (docs/voices.md). sherpa-onnx takes a Kokoro's voices file
 * only at exactly `n_speakers` style vectors (blended-voices.ts), so designed voices cannot be appended after the
 * model's own speakers; instead a bank's voices file gives each designed voice in use a speaker slot of its own
 * (the model's own voice stays in the slots not yet taken), and a designed voice is just that speaker id. A voice
 * not in the bank yet takes a free slot — or the least recently used one when all `n_speakers` are taken — and the
 * file is rebuilt, so the model is loaded again once per first use of a voice (replacing the bank's old load, never
 * adding one); every voice already in the bank speaks from the same load. Used by the engine worker
 * (sherpa-tts-engine.ts) and the live voice child (live/neural-voice-child.ts), where sentences and jobs run one at
 * a time, so a rebuild never happens under a sentence being spoken.
 */
import { JobError } from '../../../common/errors.js';
import type { SherpaTtsEngineConfig } from '../tts-families.js';
import { slotVoicesFile } from './blended-voices.js';
import { isUsableRecipe, type VoiceRecipe } from './voice-recipe.js';

/** Where a designed voice speaks from: the config whose load holds the bank, and its speaker id in it. */
export interface BankPlace {
  config: SherpaTtsEngineConfig;
  speaker: number;
}

interface Slot {
  key: string;
  recipe: VoiceRecipe;
  used: number;
}

/** What makes two recipes the same voice in the model (pace and pitch are applied around it, not in the vectors). */
function blendKey(recipe: VoiceRecipe): string {
  return JSON.stringify([recipe.voices.map((v) => [v.speaker, v.weight]), recipe.espeak]);
}

export class DesignedVoiceBank {
  private readonly slots: (Slot | null)[];
  private current: SherpaTtsEngineConfig | null = null;
  private clock = 0;

  constructor(
    private readonly base: SherpaTtsEngineConfig,
    private readonly cacheDir: string,
  ) {
    if (base.family !== 'kokoro' || !base.model.kokoro?.voices || base.numSpeakers < 2) {
      throw new JobError('model_unavailable', 'designed voices need a multi-speaker Kokoro model (its voices.bin holds the voices they are blended from)');
    }
    this.slots = new Array<Slot | null>(base.numSpeakers).fill(null);
  }

  /** The designed voices the bank holds now (for diagnostics and tests). */
  get size(): number {
    return this.slots.filter((s) => s !== null).length;
  }

  /** Where `recipe` speaks: its slot (taken now if it has none; the config then names a rebuilt voices file). */
  place(recipe: VoiceRecipe): BankPlace {
    if (!isUsableRecipe(recipe, this.base.numSpeakers)) {
      throw new JobError('invalid_params', `the designed voice does not fit this model (${this.base.numSpeakers} speakers): design it again for this model`);
    }
    const key = blendKey(recipe);
    let speaker = this.slots.findIndex((s) => s?.key === key);
    if (speaker < 0 || !this.current) {
      if (speaker < 0) speaker = this.freeSlot();
      this.slots[speaker] = { key, recipe, used: 0 };
      this.current = this.build();
    }
    this.slots[speaker]!.used = ++this.clock;
    return { config: this.current, speaker };
  }

  private freeSlot(): number {
    const free = this.slots.indexOf(null);
    if (free >= 0) return free;
    let oldest = 0;
    this.slots.forEach((s, i) => {
      if (s!.used < this.slots[oldest]!.used) oldest = i;
    });
    return oldest;
  }

  private build(): SherpaTtsEngineConfig {
    const kokoro = this.base.model.kokoro!;
    const voices = slotVoicesFile(kokoro.voices!, this.base.numSpeakers, this.slots.map((s) => s?.recipe.voices ?? null), this.cacheDir);
    const languages = this.base.speakerLanguages;
    return {
      ...this.base,
      model: { kokoro: { ...kokoro, voices } },
      ...(languages ? { speakerLanguages: this.slots.map((s, i) => s?.recipe.espeak ?? languages[i] ?? 'en-us') } : {}),
    };
  }
}
