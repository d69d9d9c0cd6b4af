/**
 * Every source of catalogue models, in precedence order for id collisions (first wins; docs/api-conventions.md,
 * "Catalogue record").
 */
import type { ModelSource } from './model-definition.js';

export interface ModelSourceContext {
  /** The data dir: models/, uploads/, artifacts/ and the database live under it. */
  dataDir: string;
  /**
   * The installed Silero VAD model's path, or null: offline recognizers need it to run live (engines/live/live-models.ts).
   * Default: none.
   */
  vadModel?: () => string | null;
  /**
   * The installed punctuation model's path, or null: recognizers that give no punctuation (PocketSphinx) add it with
   * it (engines/asr/punctuation.ts). Default: none.
   */
  punctuationModel?: () => string | null;
}

/** Registered by each engine area; the catalogue calls list() on each. */
export type ModelSourceFactory = (ctx: ModelSourceContext) => ModelSource;
