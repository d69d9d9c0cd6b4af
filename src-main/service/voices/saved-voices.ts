/**
 * The account's saved voices (docs/voices.md): what GET /v1/voices shows of a row, saving a designed voice (voice
 * design's `save_as`), and turning a saved designed voice into what a text-to-speech job speaks with. A saved voice
 * is the account's own: another account's id is unknown (404 on /v1/voices, 400 where a request names it).
 */
import { join } from 'node:path';
import type { SavedVoice } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import type { DesignedVoiceInput } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import { designableKokoro } from '../../engines/tts/design/voice-design-row.js';
import type { VoiceRecipe } from '../../engines/tts/design/voice-recipe.js';
import { isoAt, systemClock } from '../../store/clock.js';
import { newId } from '../../store/ids.js';
import type { SavedVoiceRow } from '../../store/saved-voices-repo.js';
import type { Store } from '../../store/store.js';
import type { StoredFiles } from '../../store/objects/stored-files.js';

/** Longest voice name, in code points. */
export const MAX_VOICE_NAME_CHARS = 100;
/** Saved voices an account may keep. */
export const MAX_SAVED_VOICES = 500;
/** What a saved voice's id looks like (store/ids.ts with prefix `voice`). */
export const SAVED_VOICE_ID = /^voice_[0-9A-Za-z]+$/;

export function voiceName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ApiError('invalid_request', `${field} must be a non-empty text naming the voice`, { param: field });
  const name = value.trim();
  if ([...name].length > MAX_VOICE_NAME_CHARS) throw new ApiError('invalid_request', `${field} is longer than ${MAX_VOICE_NAME_CHARS} characters`, { param: field });
  return name;
}

export function savedVoiceView(row: SavedVoiceRow): SavedVoice {
  const recipe = row.recipe_json ? (JSON.parse(row.recipe_json) as VoiceRecipe) : null;
  return {
    id: row.id,
    object: 'voice',
    name: row.name,
    kind: row.kind,
    synthetic: true,
    model: row.model_id,
    design: recipe
      ? {
          voices: recipe.voices.map(({ name, weight }) => ({ name, weight })),
          speed: recipe.speed,
          pitch_semitones: recipe.pitchSemitones,
          attributes: { ...recipe.attributes } as Record<string, string | number>,
          seed: recipe.seed,
        }
      : null,
    reference: row.kind === 'cloned' ? { bytes: row.reference_bytes, text: row.reference_text } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function refuseTooMany(store: Store, accountId: string): Promise<void> {
  if ((await store.repos.savedVoices.list(accountId)).length >= MAX_SAVED_VOICES) {
    throw new ApiError('invalid_request', `an account keeps at most ${MAX_SAVED_VOICES} saved voices: delete some (DELETE /v1/voices/{id}) first`);
  }
}

/**
 * The id a voice about to be saved will have, after checking the account may save one more: voice design puts it in
 * the job (whose result names it) before the job is created, and saves the voice once the job is (not on a replay).
 */
export async function newSavedVoiceId(store: Store, accountId: string): Promise<string> {
  await refuseTooMany(store, accountId);
  return newId('voice');
}

/** Saves a designed voice for the account under the id newSavedVoiceId() gave. */
export async function saveDesignedVoice(store: Store, accountId: string, id: string, name: string, recipe: VoiceRecipe): Promise<void> {
  const at = isoAt(systemClock);
  await store.repos.savedVoices.create({
    id, account_id: accountId, name, kind: 'designed', model_id: recipe.model, recipe_json: JSON.stringify(recipe),
    reference_path: null, reference_bytes: 0, reference_text: null, created_at: at, updated_at: at,
  });
}

/**
 * A saved cloned voice's recording on this node's disk: rows keep its path inside the uploads folder; with object
 * storage it is the object under that path's key, fetched into this node's cache.
 */
export function savedReferencePath(deps: { files: StoredFiles; uploadsDir: string }, referencePath: string): Promise<string> {
  const path = join(deps.uploadsDir, referencePath);
  return deps.files.local(deps.files.nameOf(path) ?? path);
}

/** Saves a cloned voice (its recording already stored inside the data dir at `referencePath`). */
export async function saveClonedVoice(
  store: Store,
  accountId: string,
  voice: { name: string; referencePath: string; bytes: number; text: string | null },
): Promise<SavedVoiceRow> {
  await refuseTooMany(store, accountId);
  const at = isoAt(systemClock);
  const row: SavedVoiceRow = {
    id: newId('voice'), account_id: accountId, name: voice.name, kind: 'cloned', model_id: null, recipe_json: null,
    reference_path: voice.referencePath, reference_bytes: voice.bytes, reference_text: voice.text, created_at: at, updated_at: at,
  };
  await store.repos.savedVoices.create(row);
  return row;
}

/**
 * The designed voice a text-to-speech request names (`params.voice` = a saved voice's id) for this model, or
 * undefined when `voice` is not a saved voice's id. The model must hold the voices the recipe blends (the same
 * names at the same speaker ids: the Kokoro it was designed on, or another install of it).
 */
export async function savedDesignedVoice(store: Store, accountId: string, def: ModelDefinition, voice: unknown): Promise<DesignedVoiceInput | undefined> {
  if (typeof voice !== 'string' || !SAVED_VOICE_ID.test(voice)) return undefined;
  const row = await store.repos.savedVoices.get(accountId, voice);
  if (!row) throw new ApiError('invalid_params', `no saved voice ${voice} in this account; GET /v1/voices lists them`, { param: 'voice' });
  if (row.kind !== 'designed' || !row.recipe_json) {
    throw new ApiError('invalid_params', `${voice} is a cloned voice: speak with it through POST /v1/voice-cloning (voice_id), not text-to-speech`, { param: 'voice' });
  }
  const recipe = JSON.parse(row.recipe_json) as VoiceRecipe;
  const names = designableKokoro(def)?.speakerNames;
  if (!names || !recipe.voices.every((v) => names[v.speaker] === v.name)) {
    throw new ApiError('invalid_params', `saved voice "${row.name}" (${voice}) blends voices of ${recipe.model}; model ${def.id} does not have them: use model ${recipe.model}`, { param: 'voice' });
  }
  return { recipe, unknownWords: [], savedVoice: { id: row.id, name: row.name } };
}
