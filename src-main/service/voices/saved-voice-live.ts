/**
 * A saved cloned voice as the voice of a live text-to-speech session on a zero-shot model (ZipVoice, Pocket TTS;
 * docs/voices.md): `/v1/text-to-speech/realtime?model=<cloning model>&voice=<saved cloned voice id>`. The consent rule
 * is voice-cloning's: only a voice the account saved from its own upload; another account's id is the same error as
 * an unknown one. Its recording gets voice-cloning's checks (1-30 s of readable audio), and ZipVoice needs its words:
 * a live session has no worker to transcribe them in, so a voice saved without them is refused, saying what to do.
 */
import { ApiError } from '../../common/errors.js';
import type { LiveReference } from '../../engines/live/cloned-voice-child.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { VoiceRecipe } from '../../engines/tts/design/voice-recipe.js';
import type { Store } from '../../store/store.js';
import { checkReferenceAudio } from '../routes/voice-reference.js';
import { SAVED_VOICE_ID, savedReferencePath } from './saved-voices.js';
import type { StoredFiles } from '../../store/objects/stored-files.js';

export async function liveClonedVoice(deps: { store: Store; uploadsDir: string; files: StoredFiles }, accountId: string, model: ModelDefinition, voice: string | undefined): Promise<LiveReference> {
  if (voice === undefined || voice.trim() === '') {
    throw new ApiError('invalid_params', `model ${model.id} speaks only in a cloned voice this account saved: add voice=<its id> to the query (GET /v1/voices lists them)`);
  }
  const row = SAVED_VOICE_ID.test(voice) ? await deps.store.repos.savedVoices.get(accountId, voice) : undefined;
  if (!row) throw new ApiError('invalid_params', `voice ${voice} is not a saved cloned voice of this account (GET /v1/voices lists them)`);
  if (row.kind !== 'cloned' || !row.reference_path) {
    const recipe = row.recipe_json ? (JSON.parse(row.recipe_json) as VoiceRecipe) : null;
    throw new ApiError('invalid_params', `saved voice "${row.name}" (${voice}) is a designed voice: it speaks live with ${recipe ? `model ${recipe.model}` : 'the Kokoro it was designed on'}, not with the voice-cloning model ${model.id}`);
  }
  const path = await savedReferencePath(deps, row.reference_path);
  await checkReferenceAudio({ field: 'voice', originalName: row.name, path, bytes: row.reference_bytes, sha256: '', mimeType: 'application/octet-stream' }, 'voice');
  if (model.engineConfig.family === 'zipvoice' && !row.reference_text) {
    throw new ApiError(
      'text_required',
      `saved voice "${row.name}" was saved without the words said in its recording, which ZipVoice needs, and a live session cannot transcribe them: save the voice again with reference_text, or speak it live with Pocket TTS`,
    );
  }
  return { path, text: row.reference_text };
}
