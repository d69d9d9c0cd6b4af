import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobError } from '../../../../src-main/common/errors.js';
import sherpaAsrFactory from '../../../../src-main/engines/asr/sherpa-asr-engine.js';
import { decodeBlocks } from '../../../../src-main/engines/audio/decode.js';
import { probeDuration } from '../../../../src-main/engines/audio/probe.js';
import { segmentSpeech } from '../../../../src-main/engines/audio/segments.js';
import { SHARED } from '../../../helpers/system.js';
import { makeTempDir } from '../../../helpers/audio-fixtures.js';
import { recordingContext, sttTask, tinyNemoCtcConfig } from '../../../helpers/engine-context.js';
import { LONG_SECONDS, makeTwoHourFile } from '../../../helpers/long-file.js';
import { scaled } from '../../../helpers/time-scale.js';

const VAD = join(SHARED, 'models/silero_vad_v5.onnx');
const temp = makeTempDir('voxdesk-long-');
let file = '';

beforeAll(() => {
  file = makeTwoHourFile(temp.dir);
}, scaled(300_000));
afterAll(() => temp.cleanup());

describe('a two-hour recording', () => {
  it('is measured before recognition', async () => {
    expect(await probeDuration(file)).toBeCloseTo(LONG_SECONDS, 1);
  });

  it('streams through decode + VAD in flat memory (the whole file would be 460 MB as Float32)', async () => {
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    let segments = 0;
    const controller = new AbortController();
    const run = async (): Promise<void> => {
      const blocks = decodeBlocks(file, { signal: controller.signal });
      // The first 15 minutes: enough to show memory does not grow with the audio consumed.
      for await (const segment of segmentSpeech(blocks, { vadModel: VAD, signal: controller.signal, onPosition: (s) => s > 900 && controller.abort() })) {
        segments++;
        expect(segment.end - segment.start).toBeLessThanOrEqual(25.001);
        peak = Math.max(peak, process.memoryUsage().rss);
      }
    };
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobError);
    expect((error as JobError).code).toBe('cancelled');
    expect(segments).toBeGreaterThanOrEqual(14);
    // Loose: 15 min of Float32 audio alone would be 58 MB; the whole file 460 MB.
    expect(peak - before).toBeLessThan(120 * 1024 * 1024);
  }, scaled(300_000));

  it('a recognition job on it can be cancelled between segments', async () => {
    const engine = await sherpaAsrFactory();
    const config = tinyNemoCtcConfig(VAD);
    const ctx = recordingContext((fraction, controller) => fraction > 0.005 && controller.abort());
    const error = await engine.run(sttTask(file, 'sherpa-asr', config), ctx).catch((e: unknown) => e);
    expect((error as JobError).code).toBe('cancelled');
    expect(ctx.events[0]).toEqual({ kind: 'measured', value: LONG_SECONDS });
  }, scaled(300_000));
});
