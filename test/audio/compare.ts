/**
 * Comparing what a player was given with what the null sink heard, sample for sample (test/audio): at the sink's own
 * rate nothing is resampled, so the recording holds the very samples written, and a loaded machine can only insert
 * silence (an underrun, reported by the player or made by the sound server) — never drop, repeat or move a sample,
 * except the few ms a sound server loses as it restarts a stream that ran dry.
 */
/** Deterministic noise (a fixed LCG): every sample differs, so a dropped, repeated or moved sample shows. */
export function noise(samples: number, seed: number): Int16Array {
  const out = new Int16Array(samples);
  let state = seed;
  for (let i = 0; i < samples; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out[i] = ((state >> 8) % 16000) - 8000;
  }
  return out;
}

/** Where `segment` best lines up in the recording (cross-correlation of its first 2,000 samples). */
export function locate(x: Float32Array, segment: Int16Array, from = 0): number {
  let best = -Infinity;
  let at = -1;
  for (let offset = from; offset + segment.length <= x.length; offset++) {
    let c = 0;
    for (let i = 0; i < 2000; i += 2) c += x[offset + i]! * segment[i]!;
    if (c > best) {
      best = c;
      at = offset;
    }
  }
  return at;
}

/**
 * Follows `source` through the recording from `offset` (where source[0] is), from its sample `skip` on: every
 * sample must come back identical and in order, and where the recording departs from it, only digital silence may
 * have been inserted before the source goes on. A sound server that ran dry restarts the stream and loses up to
 * ~10 ms there (as at a stream's start): up to `restartLoss` samples may be missing after each silence, counted in
 * `lost`. Returns the silences (recording sample counts), the samples lost at restarts, and those never found.
 */
export function follow(
  x: Float32Array,
  source: Int16Array,
  offset: number,
  skip: number,
  restartLoss: number,
): { silences: number[]; lost: number; missing: number } {
  const at = (j: number) => Math.round(x[j]! * 32768);
  const silences: number[] = [];
  let lost = 0;
  let pos = offset + skip;
  let i = skip;
  const resumesAt = (p: number, j: number): boolean => {
    const run = Math.min(64, source.length - j);
    for (let k = 0; k < run; k++) if (p + k >= x.length || at(p + k) !== source[j + k]) return false;
    return true;
  };
  while (i < source.length) {
    if (pos < x.length && at(pos) === source[i]) {
      i++;
      pos++;
      continue;
    }
    // Not the next sample: only silence may come before it.
    let resume = pos;
    while (resume < x.length && at(resume) === 0) resume++;
    let j = i;
    while (j <= i + restartLoss && j < source.length && !resumesAt(resume, j)) j++;
    if (resume === pos || j > i + restartLoss || j >= source.length) return { silences, lost, missing: source.length - i };
    silences.push(resume - pos);
    lost += j - i;
    pos = resume;
    i = j;
  }
  return { silences, lost, missing: 0 };
}

/**
 * Where `segment` sits in the recording, found by its samples from `skip` on coming back exactly (64 in a row): for
 * sound whose cross-correlation has many near-maxima (speech, with its low frequencies). -1 when nowhere.
 */
export function locateExact(x: Float32Array, segment: Int16Array, skip: number): number {
  const run = Math.min(64, segment.length - skip);
  for (let offset = 0; offset + skip + run <= x.length; offset++) {
    let k = 0;
    while (k < run && Math.round(x[offset + skip + k]! * 32768) === segment[skip + k]) k++;
    if (k === run) return offset;
  }
  return -1;
}
