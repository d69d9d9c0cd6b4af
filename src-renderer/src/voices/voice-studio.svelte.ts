/**
 * The Voices tab's work, apart from its view (docs/voices.md): designing a voice from a description and attribute
 * choices (a preview job on /v1/voice-design, held by the service, then polled), saving it under a name (the same
 * design again with save_as: the same description and seed give the same voice), and the account's saved voices —
 * listed, renamed, deleted, a designed one played as a sample through text-to-speech, a cloned one saved from a
 * recording the person uploads or records.
 */
import type { Job, SavedVoice } from '$common/api-types.js';
import type { ApiClient } from '$common/api-client.js';
import { isTerminal } from '$common/job-states.js';

export interface DesignChoice {
  model: string;
  description: string;
  /** Attribute params chosen in the form ('' = not chosen). */
  gender: string;
  age: string;
  accent: string;
  pitch: string;
  pace: string;
  seed: number;
  language: string;
  text: string;
}

/** The params of a design: the attributes chosen, the seed and the description's language. */
export function designParams(choice: DesignChoice): Record<string, unknown> {
  const params: Record<string, unknown> = { seed: choice.seed, language: choice.language };
  for (const name of ['gender', 'age', 'accent', 'pitch', 'pace'] as const) if (choice[name]) params[name] = choice[name];
  return params;
}

async function untilDone(api: ApiClient, product: 'voice-design' | 'text-to-speech', job: Job, pollMs: number): Promise<Job> {
  while (!isTerminal(job.status)) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    job = await api.getJob(product, job.id);
  }
  return job;
}

export class VoiceStudio {
  /** The last preview (or save) job. */
  preview = $state<Job | null>(null);
  designing = $state(false);
  saving = $state(false);
  designError = $state<unknown>(null);
  voices = $state<SavedVoice[]>([]);
  listError = $state<unknown>(null);
  /** A saved voice's sample being made or played, by voice id. */
  samples = $state<Record<string, Job>>({});
  readonly #api: () => ApiClient;

  constructor(api: () => ApiClient, private readonly pollMs = 500) {
    this.#api = api;
  }

  async refresh(): Promise<void> {
    try {
      this.voices = await this.#api().listVoices();
      this.listError = null;
    } catch (err) {
      this.listError = err;
    }
  }

  /** Speaks the preview text in the designed voice; with `saveAs`, also keeps the voice under that name. */
  async design(choice: DesignChoice, saveAs: string | null = null): Promise<void> {
    if (this.designing || this.saving) return;
    if (saveAs) this.saving = true;
    else this.designing = true;
    this.designError = null;
    try {
      const api = this.#api();
      const job = await api.designVoice({
        model: choice.model,
        text: choice.text,
        ...(choice.description.trim() ? { description: choice.description } : {}),
        params: designParams(choice),
        ...(saveAs ? { save_as: saveAs } : {}),
      });
      this.preview = job;
      this.preview = await untilDone(api, 'voice-design', job, this.pollMs);
      if (saveAs) await this.refresh();
    } catch (err) {
      this.designError = err;
    } finally {
      this.designing = false;
      this.saving = false;
    }
  }

  async rename(id: string, name: string): Promise<void> {
    const renamed = await this.#api().renameVoice(id, name);
    this.voices = this.voices.map((v) => (v.id === id ? renamed : v));
  }

  async remove(id: string): Promise<void> {
    await this.#api().deleteVoice(id);
    this.voices = this.voices.filter((v) => v.id !== id);
  }

  /** A designed voice speaks `text` (text-to-speech with params.voice = its id) for the list's player. */
  async sample(voice: SavedVoice, text: string): Promise<void> {
    if (!voice.model) return;
    const api = this.#api();
    const job = await api.speak({ model: voice.model, text, params: { voice: voice.id } });
    this.samples = { ...this.samples, [voice.id]: job };
    this.samples = { ...this.samples, [voice.id]: await untilDone(api, 'text-to-speech', job, this.pollMs) };
  }

  /** Saves a cloned voice from the person's own recording (a file they chose or what the microphone recorded). */
  async clone(voice: { name: string; referenceText: string; audio: Blob; filename: string }): Promise<void> {
    await this.#api().cloneVoice(voice);
    await this.refresh();
  }
}
