/**
 * A two-hour recording (jfk.wav + silence, looped) through the streamed path: decode + Silero VAD, then a whole
 * recognition job with the tiny NeMo CTC model. Reports wall time, real-time factor and peak RSS growth (sampled),
 * to show memory stays flat (the file as one Float32 array would be 460 MB). JSON lines `stt-long`.
 */
import { join } from 'node:path';
import { asrFamilyDefinition } from '../src-main/engines/asr/asr-families.js';
import sherpaAsrFactory from '../src-main/engines/asr/sherpa-asr-engine.js';
import { decodeBlocks } from '../src-main/engines/audio/decode.js';
import { segmentSpeech } from '../src-main/engines/audio/segments.js';
import { SHARED } from '../test/helpers/system.js';
import { makeTempDir } from '../test/helpers/audio-fixtures.js';
import { recordingContext, sttTask } from '../test/helpers/engine-context.js';
import { LONG_SECONDS, makeTwoHourFile } from '../test/helpers/long-file.js';

const VAD = join(SHARED, 'models/silero_vad_v5.onnx');
const temp = makeTempDir('voxdesk-bench-long-');
const MB = 1024 * 1024;
const round = (v: number): number => Math.round(v * 1000) / 1000;

async function measure(name: string, work: () => Promise<number>): Promise<void> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const started = performance.now();
  const segments = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    JSON.stringify({
      bench: 'stt-long',
      path: name,
      audio_seconds: LONG_SECONDS,
      segments,
      wall_seconds: round(seconds),
      rtf: round(seconds / LONG_SECONDS),
      rss_before_mb: round(before / MB),
      peak_rss_growth_mb: round((peak - before) / MB),
    }),
  );
}

try {
  const file = makeTwoHourFile(temp.dir);
  await measure('decode+vad', async () => {
    let n = 0;
    for await (const _segment of segmentSpeech(decodeBlocks(file), { vadModel: VAD })) n++;
    return n;
  });
  const engine = await sherpaAsrFactory();
  const config = asrFamilyDefinition('nemo-ctc', {
    id: 'tiny-nemo-ctc',
    dir: join(SHARED, 'models/tiny/tiny-nemo-ctc'),
    languages: ['en'],
    files: { model: 'model.onnx', tokens: 'tokens.txt' },
    support: { sileroVad: VAD },
  }).engineConfig;
  await measure('sherpa-asr job (tiny nemo-ctc)', async () => {
    const out = await engine.run(sttTask(file, 'sherpa-asr', config), recordingContext());
    return out.result.segments?.length ?? 0;
  });
} finally {
  temp.cleanup();
}
