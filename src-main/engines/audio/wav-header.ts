/**
 * Reads the format and the data chunk's place from the first bytes of a RIFF WAVE file (chunks such as LIST or bext
 * before the data are walked past). One reader for every module that looks at WAV headers without decoding: the
 * denoise source probe and the plain-PCM16 fast path of speech to text.
 */

export interface WavHeader {
  /** 1 = PCM, 3 = float, …; WAVE_FORMAT_EXTENSIBLE resolved to its sub-format. */
  formatTag: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
  /**
   * Where the samples start and the byte count the header states (0 or 0xFFFFFFFF when written as a stream, possibly
   * more than the file holds when truncated); null when the data chunk is not within the bytes read.
   */
  data: { offset: number; bytes: number } | null;
}

const FORMAT_EXTENSIBLE = 0xfffe;

/** The header of `head` (the file's first bytes); null when it is not a RIFF WAVE with a format chunk. */
export function parseWavHeader(head: Uint8Array): WavHeader | null {
  if (head.length < 12) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const tag = (at: number): string => String.fromCharCode(...head.subarray(at, at + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let format: Omit<WavHeader, 'data'> | null = null;
  for (let at = 12; at + 8 <= head.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= head.length) {
      const formatTag = view.getUint16(body, true);
      const extensible = formatTag === FORMAT_EXTENSIBLE && size >= 26 && body + 26 <= head.length;
      format = {
        formatTag: extensible ? view.getUint16(body + 24, true) : formatTag,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      return format ? { ...format, data: { offset: body, bytes: size } } : null;
    }
    at = body + size + (size % 2);
  }
  return format ? { ...format, data: null } : null;
}
