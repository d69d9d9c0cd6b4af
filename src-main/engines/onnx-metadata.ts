/**
 * Reads the custom metadata (`metadata_props`) of an .onnx file without loading the model. sherpa-onnx exports put
 * what a loader needs there — a Whisper model's language codes, a streaming encoder's `decode_chunk_len`, whether a
 * VITS voice is a Piper export, a voice's speaker count and sample rate — and some wrong guesses make sherpa-onnx end
 * the whole process rather than throw (models/tiny/README.md). Knowing them before loading turns those into clear
 * errors and lets detection tell apart layouts whose file names look alike.
 *
 * An ONNX file is a protobuf ModelProto. Its top-level fields are walked with small positioned reads, skipping the
 * graph (which may be hundreds of MB) by its length prefix, so the cost does not grow with the model's size. No
 * library does this without parsing the whole file into memory.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** ModelProto field 14: repeated StringStringEntryProto {1: key, 2: value}. */
const METADATA_FIELD = 14;
/** A single metadata entry larger than this is not sherpa-onnx metadata (Whisper's token lists are ~10 KB). */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

export type OnnxMetadata = Record<string, string>;

/** A read the walk asks for: `length` bytes at `pos` (fewer come back at the end of the file). */
interface ReadRequest {
  pos: number;
  length: number;
}

/** A varint at the start of `buf`: [value, bytes used], or null when the buffer ends inside it. */
function varintAt(buf: Buffer): [number, number] | null {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < buf.length && i < 10; i++) {
    const byte = buf[i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return [value, i + 1];
    scale *= 128;
  }
  return null;
}

/** key/value of one StringStringEntryProto, or null when it is malformed. */
function parseEntry(entry: Buffer): [string, string] | null {
  let pos = 0;
  let key: string | null = null;
  let value = '';
  while (pos < entry.length) {
    const tag = entry[pos]!;
    pos += 1;
    if ((tag & 7) !== 2) return null;
    let length = 0;
    let scale = 1;
    for (;;) {
      if (pos >= entry.length) return null;
      const byte = entry[pos++]!;
      length += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) break;
      scale *= 128;
    }
    if (pos + length > entry.length) return null;
    const text = entry.toString('utf8', pos, pos + length);
    pos += length;
    if (tag >> 3 === 1) key = text;
    else if (tag >> 3 === 2) value = text;
  }
  return key === null ? null : [key, value];
}

/**
 * The walk over a ModelProto's top-level fields, as a generator that asks for the bytes it needs: the same walk then
 * runs over synchronous reads (the engines, in their worker processes) and asynchronous ones (the model manager, on
 * the service's thread).
 */
function* metadataWalk(path: string, size: number): Generator<ReadRequest, OnnxMetadata, Buffer> {
  const out: OnnxMetadata = {};
  let pos = 0;
  while (pos < size) {
    const tag = varintAt(yield { pos, length: 10 });
    if (!tag) throw new Error(`${path} is not an ONNX model (truncated field at byte ${pos})`);
    pos += tag[1];
    const field = Math.floor(tag[0] / 8);
    const wire = tag[0] % 8;
    if (field === 0) throw new Error(`${path} is not an ONNX model (field 0 at byte ${pos})`);
    if (wire === 0) {
      const v = varintAt(yield { pos, length: 10 });
      if (!v) throw new Error(`${path} is not an ONNX model (bad varint at byte ${pos})`);
      pos += v[1];
    } else if (wire === 1) {
      pos += 8;
    } else if (wire === 5) {
      pos += 4;
    } else if (wire === 2) {
      const len = varintAt(yield { pos, length: 10 });
      if (!len) throw new Error(`${path} is not an ONNX model (bad length at byte ${pos})`);
      pos += len[1];
      if (pos + len[0] > size) throw new Error(`${path} is truncated (a field runs past the end of the file)`);
      if (field === METADATA_FIELD && len[0] <= MAX_ENTRY_BYTES) {
        const entry = parseEntry(yield { pos, length: len[0] });
        if (entry) out[entry[0]] = entry[1];
      }
      pos += len[0];
    } else {
      throw new Error(`${path} is not an ONNX model (wire type ${wire} at byte ${pos})`);
    }
  }
  return out;
}

/**
 * The metadata of the ONNX file at `path` (empty when it has none). Throws when the file cannot be read or is not
 * an ONNX protobuf at all; a later entry with the same key wins, as in onnxruntime.
 */
export function readOnnxMetadata(path: string): OnnxMetadata {
  const fd = openSync(path, 'r');
  try {
    const walk = metadataWalk(path, fstatSync(fd).size);
    let step = walk.next();
    while (!step.done) {
      const buf = Buffer.alloc(step.value.length);
      const n = readSync(fd, buf, 0, buf.length, step.value.pos);
      step = walk.next(buf.subarray(0, n));
    }
    return step.value;
  } finally {
    closeSync(fd);
  }
}

/** readOnnxMetadata without blocking the event loop (the model manager's layout detection). */
export async function readOnnxMetadataAsync(path: string): Promise<OnnxMetadata> {
  const handle = await open(path, 'r');
  try {
    const walk = metadataWalk(path, (await handle.stat()).size);
    let step = walk.next();
    while (!step.done) {
      const buf = Buffer.alloc(step.value.length);
      const { bytesRead } = await handle.read(buf, 0, buf.length, step.value.pos);
      step = walk.next(buf.subarray(0, bytesRead));
    }
    return step.value;
  } finally {
    await handle.close();
  }
}

/** readOnnxMetadata, or {} when the file is missing or unreadable (detection then falls back to file names). */
export function onnxMetadataOrEmpty(path: string): OnnxMetadata {
  try {
    return readOnnxMetadata(path);
  } catch {
    return {};
  }
}
