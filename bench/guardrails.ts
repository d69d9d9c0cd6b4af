/**
 * Issue 29's guardrail figures (docs/transcripts.md "Guardrails"):
 * 1. Their cost on a 2-hour recording: the tiny NeMo CTC model through Silero VAD, the engine called in this
 *    process, then the checks (`segmentFlags`) timed again over the job's segments — the share of the job's time the
 *    checks take (goal ≤ 3 %; the re-decodes a flag triggers are inside the job's own time and counted apart).
 * 2. False flags: PocketSphinx on every Hi-Fi TTS clip of ../shared/audio (clean read speech): how many segments are
 *    flagged, and which.
 * JSON lines on stdout: `guardrails-cost` and `guardrails-false-flags`.
 * Usage: node --import tsx bench/guardrails.ts   (on a quiet machine; about 10 minutes)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SegmentFlag } from '../src-main/common/api-types.js';
import pocketsphinxFactory from '../src-main/engines/asr/pocketsphinx-engine.js';
import { findPocketsphinx } from '../src-main/engines/asr/pocketsphinx-install.js';
import { segmentFlags } from '../src-main/engines/asr/segment-guardrails.js';
import sherpaAsrFactory from '../src-main/engines/asr/sherpa-asr-engine.js';
import { makeTempDir } from '../test/helpers/audio-fixtures.js';
import { recordingContext, sttTask, tinyNemoCtcConfig } from '../test/helpers/engine-context.js';
import { LONG_SECONDS, makeTwoHourFile } from '../test/helpers/long-file.js';
import { SHARED } from '../test/helpers/system.js';
import { round3 } from './_stats.js';

const VAD = join(SHARED, 'models/silero_vad_v5.onnx');
const HIFI = join(SHARED, 'audio/hifitts-6097');
const REPEATS = 20;

type Segment = { text: string; start: number; end: number; flags?: SegmentFlag[] };

/** Milliseconds the checks take over `segments` (the best of REPEATS passes: the machine's noise is not theirs). */
function checksMs(segments: readonly Segment[]): number {
  let best = Infinity;
  for (let r = 0; r < REPEATS; r++) {
    const started = performance.now();
    for (const segment of segments) segmentFlags(segment);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

async function cost(): Promise<void> {
  const temp = makeTempDir('voxdesk-bench-guardrails-');
  try {
    const file = makeTwoHourFile(temp.dir);
    const engine = await sherpaAsrFactory();
    const config = tinyNemoCtcConfig(VAD);
    const started = performance.now();
    const out = await engine.run(sttTask(file, 'sherpa-asr', config), recordingContext());
    const jobMs = performance.now() - started;
    const segments = (out.result.segments ?? []) as Segment[];
    const ms = checksMs(segments);
    console.log(
      JSON.stringify({
        bench: 'guardrails-cost',
        audio_seconds: LONG_SECONDS,
        segments: segments.length,
        flagged: segments.filter((s) => s.flags?.length).length,
        job_seconds: round3(jobMs / 1000),
        checks_ms: round3(ms),
        share: round3(ms / jobMs),
      }),
    );
  } finally {
    temp.cleanup();
  }
}

async function falseFlags(): Promise<void> {
  if (!findPocketsphinx()) throw new Error('PocketSphinx is not installed: apt install pocketsphinx pocketsphinx-en-us');
  const engine = await pocketsphinxFactory();
  const files = readFileSync(join(HIFI, 'refs.tsv'), 'utf8').trim().split('\n').map((line) => line.split('\t')[0]!);
  let segments = 0;
  const flagged: { file: string; text: string; flags: SegmentFlag[] }[] = [];
  for (const file of files) {
    const out = await engine.run(sttTask(join(HIFI, file), 'pocketsphinx', {}, { response_format: 'verbose_json' }), recordingContext());
    for (const segment of (out.result.segments ?? []) as Segment[]) {
      segments++;
      if (segment.flags?.length) flagged.push({ file, text: segment.text, flags: segment.flags });
    }
  }
  console.log(JSON.stringify({ bench: 'guardrails-false-flags', engine: 'pocketsphinx-en-us', files: files.length, segments, flagged: flagged.length, which: flagged }));
}

await cost();
await falseFlags();
