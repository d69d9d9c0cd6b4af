/**
 * The model chosen in a picker, kept valid: the person's choice while it is in the list, else the list's first
 * model (none while the list is empty). Derived rather than corrected by an effect, so it is right in the same
 * frame the catalogue changes (a model removed, a download finished). Five pickers share it: Transcribe, Speak,
 * Live, Dictate and the watch-folder form.
 */
import type { CatalogueRecord } from '$common/api-types.js';

export class ModelChoice {
  #chosen = $state<string | undefined>();
  readonly #models: () => readonly CatalogueRecord[];

  /** `models`: the list the picker shows (read reactively). */
  constructor(models: () => readonly CatalogueRecord[], initial?: string) {
    this.#models = models;
    this.#chosen = initial;
  }

  /** The id to use now; setting it records the person's choice (bind a picker's value to it). */
  get id(): string | undefined {
    const models = this.#models();
    return models.some((m) => m.id === this.#chosen) ? this.#chosen : models[0]?.id;
  }

  set id(value: string | undefined) {
    this.#chosen = value;
  }

  /** The catalogue record of `id`. */
  get model(): CatalogueRecord | undefined {
    const id = this.id;
    return this.#models().find((m) => m.id === id);
  }
}
