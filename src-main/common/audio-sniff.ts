/**
 * The audio container a file holds, from its first bytes: what a stored recording is served as (never trusting a
 * name or a declared type, which a browser could be tricked by into rendering something else). Pure: no node
 * imports, so any floor may use it. WAV, FLAC, Ogg, WebM/Matroska, MP4/M4A and MP3 (ID3 tag or frame sync).
 */

/** Bytes of a file's start the type is sniffed from. */
export const SNIFF_BYTES = 16;

/** The MIME type of the audio container `head` starts, or null when it is none of the known ones. */
export function sniffAudioType(head: Uint8Array): string | null {
  const ascii = (from: number, to: number): string => String.fromCharCode(...head.subarray(from, to));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(0, 4) === 'fLaC') return 'audio/flac';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'audio/webm';
  if (ascii(4, 8) === 'ftyp') return 'audio/mp4';
  if (ascii(0, 3) === 'ID3' || (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0)) return 'audio/mpeg';
  return null;
}
