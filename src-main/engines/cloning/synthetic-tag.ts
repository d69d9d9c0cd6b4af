/**
 * Marks a WAV artifact of a cloned or continued voice as synthetic inside the file, so the mark travels with it once
 * downloaded: a RIFF LIST/INFO chunk after the audio with ICMT (comment) and ISFT (software). Players and editors skip
 * chunks they do not know; the data chunk is untouched and the RIFF size is brought up to date. Other formats carry
 * the mark only in the job's result (`synthetic: true`), docs/voice-cloning.md.
 */
import { open } from 'node:fs/promises';

export const SYNTHETIC_COMMENT = 'Synthetic speech: a voice cloned by Voxdesk from a recording uploaded with the request.';

function infoEntry(id: string, text: string): Buffer {
  const value = Buffer.from(`${text}\0`, 'utf8');
  const padded = value.length % 2 === 0 ? value : Buffer.concat([value, Buffer.alloc(1)]);
  const head = Buffer.alloc(8);
  head.write(id, 0, 'ascii');
  head.writeUInt32LE(value.length, 4);
  return Buffer.concat([head, padded]);
}

export function infoChunk(comment: string, software: string): Buffer {
  const body = Buffer.concat([Buffer.from('INFO', 'ascii'), infoEntry('ICMT', comment), infoEntry('ISFT', software)]);
  const head = Buffer.alloc(8);
  head.write('LIST', 0, 'ascii');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** Appends the LIST/INFO chunk to a finished WAV file; a file that is not RIFF/WAVE is left as it is (false). */
export async function tagSyntheticWav(path: string, comment = SYNTHETIC_COMMENT): Promise<boolean> {
  const file = await open(path, 'r+');
  try {
    const head = Buffer.alloc(12);
    await file.read(head, 0, 12, 0);
    if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') return false;
    let size = (await file.stat()).size;
    // Chunks start on even offsets: a data chunk of odd length is followed by a pad byte.
    if (size % 2 === 1) {
      await file.write(Buffer.alloc(1), 0, 1, size);
      size += 1;
    }
    const chunk = infoChunk(comment, 'Voxdesk');
    await file.write(chunk, 0, chunk.length, size);
    const riffSize = Buffer.alloc(4);
    riffSize.writeUInt32LE(size + chunk.length - 8, 0);
    await file.write(riffSize, 0, 4, 4);
    return true;
  } finally {
    await file.close();
  }
}
