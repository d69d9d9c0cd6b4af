/**
 * What the OpenAI-compatible speech route's `voice` names when it is the id of one of the account's saved voices
 * (docs/voices.md), checked against the model the request names:
 * - a text-to-speech model speaks a saved **designed** voice (saved-voices.ts savedDesignedVoice);
 * - a voice-cloning model (ZipVoice, Pocket TTS) speaks a saved **cloned** voice: the request becomes a voice-cloning
 *   job made exactly as POST /v1/voice-cloning with a `voice_id` makes one — the saved recording copied into an upload
 *   folder of the job's own (so the voice may be deleted meanwhile), its length checked, its saved words given or a
 *   recognizer chosen to transcribe it (routes/voice-reference.ts).
 * Anything else is a 400 naming what fits. The consent rule: only the account's own voices are found; another
 * account's id is the same error as an unknown one.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../common/errors.js';
import type { EngineInput } from '../../engines/engine-types.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { VoiceRecipe } from '../../engines/tts/design/voice-recipe.js';
import { PRIVATE_DIR_MODE } from '../../store/private-files.js';
import type { AppDeps } from '../app-deps.js';
import { savedVoiceReference } from '../routes/saved-voice-reference.js';
import { checkReferenceAudio, chooseTranscriber } from '../routes/voice-reference.js';
import { SAVED_VOICE_ID, savedDesignedVoice } from '../voices/saved-voices.js';

/** A voice-cloning model: it speaks only in a recording's voice (here: a saved cloned voice). */
export function isCloningModel(def: ModelDefinition): boolean {
  return def.products.includes('voice-cloning') && !def.products.includes('text-to-speech');
}

/** The installed voice-cloning models, for the messages that say which model a cloned voice needs. */
function cloningModels(deps: Pick<AppDeps, 'catalogue'>): string {
  const ids = deps.catalogue
    .definitions()
    .filter((d) => d.status === 'available' && isCloningModel(d))
    .map((d) => d.id);
  return ids.length > 0 ? `one of ${ids.join(', ')}` : 'a voice-cloning model (ZipVoice or Pocket TTS: voxdesk models pull pocket-tts-int8-en; none is installed)';
}

/** A saved cloned voice as a voice-cloning job's input, with the upload folder it was copied to. */
export interface ClonedSpeechVoice {
  voice: { id: string; name: string };
  input: Pick<EngineInput, 'referencePath' | 'fileName' | 'referenceText' | 'transcriber'>;
  /** Deletes the copied recording (a refusal after the copy, or a replayed Idempotency-Key). */
  discard(): Promise<void>;
}

function unknownVoice(id: string): ApiError {
  return new ApiError('invalid_params', `no saved voice ${id} in this account; GET /v1/voices lists them`, { param: 'voice' });
}

/**
 * The saved cloned voice a voice-cloning model's request names, copied for its job. `voice` must be a saved voice's id
 * (a string or `{id}`): an OpenAI voice name, a designed voice or an unknown id is a 400 saying what fits.
 */
export async function clonedSpeechVoice(deps: Pick<AppDeps, 'store' | 'uploadsDir' | 'files' | 'catalogue' | 'validator'>, accountId: string, def: ModelDefinition, voice: unknown): Promise<ClonedSpeechVoice> {
  if (typeof voice !== 'string' || !SAVED_VOICE_ID.test(voice)) {
    throw new ApiError(
      'invalid_request',
      `model ${def.id} is a voice-cloning model: it speaks only in a cloned voice this account saved, so voice must be that voice's id (voice_…; GET /v1/voices lists them), not ${JSON.stringify(voice ?? null)}`,
      { param: 'voice' },
    );
  }
  const row = await deps.store.repos.savedVoices.get(accountId, voice);
  if (!row) throw unknownVoice(voice);
  if (row.kind !== 'cloned') {
    const recipe = row.recipe_json ? (JSON.parse(row.recipe_json) as VoiceRecipe) : null;
    throw new ApiError(
      'invalid_params',
      `saved voice "${row.name}" (${voice}) is a designed voice: it speaks with ${recipe ? `model ${recipe.model}` : 'the Kokoro it was designed on'}, not with the voice-cloning model ${def.id}, which speaks in a saved cloned voice`,
      { param: 'voice' },
    );
  }
  const dir = join(deps.uploadsDir, accountId, `up_${randomUUID().replaceAll('-', '')}`);
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const discard = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    const { file, text } = await savedVoiceReference(deps, accountId, voice, dir);
    // The 1-30 s rule and the transcription are the on-device models' (a hosted one checks its own).
    const onDevice = def.engine === 'sherpa-cloning';
    if (onDevice) await checkReferenceAudio(file, 'voice');
    const transcriber = onDevice ? chooseTranscriber(deps, def, text, 'voice') : undefined;
    return {
      voice: { id: row.id, name: row.name },
      input: { referencePath: file.path, fileName: file.originalName, ...(text ? { referenceText: text } : {}), ...(transcriber ? { transcriber } : {}) },
      discard,
    };
  } catch (error) {
    await discard();
    throw error;
  }
}

/**
 * A saved voice's id named with a text-to-speech model: its designed voice, or a 400 when it is a cloned one (which
 * speaks with a voice-cloning model, named). Undefined when `voice` is not a saved voice's id (an OpenAI or model voice).
 */
export async function designedSpeechVoice(deps: Pick<AppDeps, 'store' | 'catalogue'>, accountId: string, def: ModelDefinition, voice: unknown): Promise<Awaited<ReturnType<typeof savedDesignedVoice>>> {
  if (typeof voice !== 'string' || !SAVED_VOICE_ID.test(voice)) return undefined;
  const row = await deps.store.repos.savedVoices.get(accountId, voice);
  if (!row) throw unknownVoice(voice);
  if (row.kind === 'cloned') {
    throw new ApiError(
      'invalid_params',
      `saved voice "${row.name}" (${voice}) is a cloned voice: it speaks with a voice-cloning model as model (${cloningModels(deps)}), not with the text-to-speech model ${def.id}`,
      { param: 'voice' },
    );
  }
  return savedDesignedVoice(deps.store, accountId, def, voice);
}
