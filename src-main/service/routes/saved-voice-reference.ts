/**
 * A saved cloned voice as the voice a zero-shot product speaks in (`voice_id` instead of a `reference_audio` part,
 * docs/voice-cloning.md): its recording — one the account uploaded when it saved the voice, the consent rule of
 * docs/voices.md — is copied into the request's own upload folder, so the job holds its reference like any upload
 * and the saved voice may be deleted meanwhile; its words come along unless the request sends its own.
 */
import { copyFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ApiError } from '../../common/errors.js';
import { sha256File } from '../../models/downloads/http-download.js';
import type { AppDeps } from '../app-deps.js';
import type { UploadedFile } from '../uploads/multipart.js';
import { savedReferencePath } from '../voices/saved-voices.js';

export async function savedVoiceReference(deps: Pick<AppDeps, 'store' | 'uploadsDir' | 'files'>, accountId: string, voiceId: string, dir: string): Promise<{ file: UploadedFile; text: string | null }> {
  const row = voiceId.trim() ? await deps.store.repos.savedVoices.get(accountId, voiceId.trim()) : undefined;
  if (!row) throw new ApiError('invalid_request', `voice_id ${JSON.stringify(voiceId)} is not one of this account's saved voices (GET /v1/voices lists them)`);
  if (row.kind !== 'cloned' || !row.reference_path) {
    throw new ApiError('invalid_request', `voice ${row.id} (${row.name}) is a designed voice: it speaks through text-to-speech (params.voice), not as a recording to clone; use a cloned voice or send reference_audio`);
  }
  const path = join(dir, `99-${basename(row.reference_path)}`);
  await copyFile(await savedReferencePath(deps, row.reference_path), path);
  const file: UploadedFile = {
    field: 'reference_audio',
    originalName: basename(row.reference_path),
    path,
    bytes: (await stat(path)).size,
    sha256: await sha256File(path),
    mimeType: 'application/octet-stream',
  };
  return { file, text: row.reference_text };
}
