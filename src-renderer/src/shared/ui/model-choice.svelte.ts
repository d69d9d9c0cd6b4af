/**
 * The model chosen in a picker, kept valid: the person's choice while it is in the list, else the list's first
 * model (none while the list is empty). Derived rather than corrected by an effect, so it is right in the same
 * frame the catalogue changes (a model removed, a download finished). Five pickers share it: Transcribe, Speak,
 * Live, Dictate and the watch-folder form. With a `kind`, the person's choice is remembered in this browser
 * (model-preference.ts) and the picker opens on it next time.
 */
import type { CatalogueRecord } from '$common/api-types.js';
import { preferModel, preferredModel } from './model-preference.js';

/** The model a view has chosen, as a session that starts with it reads it (a dictation, a meeting capture). */
export interface ChosenModel {
  modelId(): string | undefined;
}

export class ModelChoice {
  #chosen = $state<string | undefined>();
  readonly #models: () => readonly CatalogueRecord[];
  readonly #kind: string | null;

  /** `models`: the list the picker shows (read reactively); `kind`: remember the choice under this name. */
  constructor(models: () => readonly CatalogueRecord[], kind: string | null = null) {
    this.#models = models;
    this.#kind = kind;
    this.#chosen = kind ? preferredModel(kind) : undefined;
  }

  /** The id to use now; setting it records the person's choice (bind a picker's value to it). */
  get id(): string | undefined {
    const models = this.#models();
    return models.some((m) => m.id === this.#chosen) ? this.#chosen : models[0]?.id;
  }

  set id(value: string | undefined) {
    this.#chosen = value;
    if (this.#kind) preferModel(this.#kind, value);
  }

  /** The catalogue record of `id`. */
  get model(): CatalogueRecord | undefined {
    const id = this.id;
    return this.#models().find((m) => m.id === id);
  }
}
