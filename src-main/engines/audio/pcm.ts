/** Float32 ⇄ signed 16-bit little-endian PCM (the live protocol's and the `pcm` output format's sample format). */

/** Converts -1..1 floats to s16le bytes (clipped, rounded; 1.0 → 32767, -1.0 → -32768). */
export function floatToS16le(samples: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.round((samples[i] ?? 0) * 32768);
    out.writeInt16LE(s > 32767 ? 32767 : s < -32768 ? -32768 : s, i * 2);
  }
  return out;
}

/** Converts -1..1 floats to 16-bit integers (rounded and clipped as floatToS16le): what PCM16 consumers take. */
export function floatToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.round(samples[i]! * 32768);
    out[i] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
  }
  return out;
}

/** Converts s16le bytes (an odd trailing byte is ignored) to -1..1 floats. */
export function s16leToFloat(bytes: Uint8Array): Float32Array {
  const count = bytes.length >> 1;
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

/** Interleaves equal-length channels (L R L R …). */
export function interleave(channels: Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0]!;
  const n = channels[0]?.length ?? 0;
  const out = new Float32Array(n * channels.length);
  for (let c = 0; c < channels.length; c++) {
    const ch = channels[c]!;
    for (let i = 0; i < n; i++) out[i * channels.length + c] = ch[i]!;
  }
  return out;
}
