/**
 * WAV headers, read and written in one place. Reading: the format and the data chunk's place from the first bytes of
 * a RIFF WAVE file (chunks such as LIST or bext before the data are walked past), for every module that looks at WAV
 * headers without decoding (the denoise source probe, the plain-PCM16 fast path of speech to text). Writing: the one
 * PCM16 header every WAV Voxdesk writes starts with (the streaming encoder, a live session's recording, a capture's
 * chunked recording, the test engine).
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

/** A canonical PCM WAV header's length: what precedes the samples. */
export const WAV_HEADER_BYTES = 44;
/** Size fields of a WAV header whose length is not known yet (streaming readers read to the end). */
export const UNKNOWN_WAV_SIZE = 0xffffffff;

/** The 44-byte header of a 16-bit PCM WAV of `channels` channels holding `dataBytes` of samples (or UNKNOWN_WAV_SIZE). */
export function pcm16WavHeader(sampleRate: number, channels: number, dataBytes: number): Buffer {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(dataBytes === UNKNOWN_WAV_SIZE ? UNKNOWN_WAV_SIZE : 36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
