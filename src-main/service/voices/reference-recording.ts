/** A cloned voice's reference recording must be audio a decoder knows (its first bytes: common/audio-sniff.ts). */
import { open } from 'node:fs/promises';
import { SNIFF_BYTES, sniffAudioType } from '../../common/audio-sniff.js';
import { ApiError } from '../../common/errors.js';

export async function sniffReference(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    if (bytesRead === 0) throw new ApiError('file_required', 'the audio part is empty: send the recording of the voice to clone', { param: 'audio' });
    if (!sniffAudioType(head.subarray(0, bytesRead))) {
      throw new ApiError('unsupported_media_type', 'the audio part is not a recording this service reads (WAV, MP3, FLAC, Ogg, M4A, WebM…)', { param: 'audio' });
    }
  } finally {
    await handle.close();
  }
}
