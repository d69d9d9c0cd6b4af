/**
 * `voxdesk models test ID [--out FILE] [--json] [--data-dir DIR]`: checks a model right after downloading it. A
 * speech-to-text model transcribes the built-in sample recording, a voice speaks the built-in sentence, a denoiser
 * cleans the sample recording; the result and the real-time factor (processing time ÷ audio length) are printed.
 * The work goes through an in-process service like any job (worker process, catalogue, params), three times: the
 * first run loads the model, the faster of the next two is the one timed (short runs on a busy machine vary), and
 * the load shows as the difference.
 */
import { writeFile } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiClient } from '../common/api-client.js';
import type { CatalogueRecord, Job } from '../common/api-types.js';
import type { Product } from '../common/products.js';
import { openClientSession } from './client-session.js';
import { waitForJob } from './job-progress.js';
import { MODEL_TEST_SENTENCE, modelTestRecording } from './model-test-sample.js';

export interface ModelTestReport {
  id: string;
  name: string;
  capability: string;
  /** What was given to the model. */
  input: { recording: string; seconds: number } | { text: string };
  /** speech-to-text: the transcript; voices and denoisers: the audio made (and where it was saved). */
  result: { text: string } | { audio_seconds: number; file: string | null };
  /** Seconds of audio the model processed (recognised or cleaned) or made (spoken). */
  audio_seconds: number;
  /** The timed run (the faster of the second and third), from the job's start to its end. */
  processing_seconds: number;
  /** The first run, which also loaded the model. */
  first_run_seconds: number;
  real_time_factor: number;
}

const seconds = (job: Job): number => (Date.parse(job.finished_at ?? '') - Date.parse(job.started_at ?? '')) / 1000;

async function finished(client: ApiClient, product: Product, created: Job, label: string): Promise<Job> {
  const job = await waitForJob(client, product, created, label);
  if (job.status !== 'succeeded') throw new Error(`the model failed: ${job.error_code ?? job.status}: ${job.error_message ?? ''}`.trim());
  return job;
}

async function saveArtifact(client: ApiClient, job: Job, out: string | undefined): Promise<string | null> {
  const artifact = job.result?.artifacts?.[0];
  if (!artifact) throw new Error('the job succeeded but returned no audio');
  if (!out) return null;
  const file = resolve(out);
  await writeFile(file, Buffer.from(await (await client.raw('GET', artifact.url)).arrayBuffer()));
  return file;
}

/** Runs `once` three times: the first loads the model; the faster of the other two is timed. */
async function measured(once: (label: string) => Promise<Job>, verb: string): Promise<{ first: Job; timed: Job }> {
  const first = await once(`loading the model and ${verb}`);
  const a = await once(`${verb} (timed run 1 of 2)`);
  const b = await once(`${verb} (timed run 2 of 2)`);
  return { first, timed: seconds(b) < seconds(a) ? b : a };
}

export async function testModel(client: ApiClient, model: CatalogueRecord, out?: string): Promise<ModelTestReport> {
  if (model.status !== 'available') throw new Error(`${model.id} is not available: ${model.reason ?? 'unknown reason'}`);
  const base = { id: model.id, name: model.name, capability: model.capability };
  const timing = ({ first, timed }: { first: Job; timed: Job }) => {
    const audio = Number(timed.duration_seconds ?? 0);
    return {
      audio_seconds: audio,
      processing_seconds: seconds(timed),
      first_run_seconds: seconds(first),
      real_time_factor: audio > 0 ? seconds(timed) / audio : 0,
    };
  };
  if (model.capability === 'asr') {
    const recording = modelTestRecording();
    const runs = await measured(
      async (label) =>
        finished(client, 'speech-to-text', await client.transcribe({ file: await openAsBlob(recording), filename: 'model-test.wav' }, { model: model.id }), label),
      'transcribing',
    );
    const t = timing(runs);
    return { ...base, input: { recording, seconds: t.audio_seconds }, result: { text: runs.timed.result?.text ?? '' }, ...t };
  }
  if (model.capability === 'tts') {
    const runs = await measured(
      async (label) => finished(client, 'text-to-speech', await client.speak({ model: model.id, text: MODEL_TEST_SENTENCE }), label),
      'speaking',
    );
    const t = timing(runs);
    return { ...base, input: { text: MODEL_TEST_SENTENCE }, result: { audio_seconds: t.audio_seconds, file: await saveArtifact(client, runs.timed, out) }, ...t };
  }
  if (model.capability === 'noise_reduction') {
    const recording = modelTestRecording();
    const runs = await measured(async (label) => {
      const form = new FormData();
      form.append('model', model.id);
      form.append('file', await openAsBlob(recording), 'model-test.wav');
      return finished(client, 'audio-enhancement', await client.request<Job>('POST', '/v1/audio-enhancement', form), label);
    }, 'cleaning');
    const t = timing(runs);
    return { ...base, input: { recording, seconds: t.audio_seconds }, result: { audio_seconds: t.audio_seconds, file: await saveArtifact(client, runs.timed, out) }, ...t };
  }
  if (model.capability === 'stem_separation') {
    // The sample recording is speech, not a song: what is measured is the speed; the first stem (vocals) is saved.
    const recording = modelTestRecording();
    const runs = await measured(
      async (label) => finished(client, 'stem-separation', await client.separate({ file: await openAsBlob(recording), filename: 'model-test.wav' }, { model: model.id }), label),
      'separating',
    );
    const t = timing(runs);
    return { ...base, input: { recording, seconds: t.audio_seconds }, result: { audio_seconds: t.audio_seconds, file: await saveArtifact(client, runs.timed, out) }, ...t };
  }
  if (model.capability === 'voice_cloning') {
    // The sample recording's voice (its words are the sentence) speaks the sentence again: what is timed is the speech made.
    const recording = modelTestRecording();
    const runs = await measured(async (label) => {
      const form = new FormData();
      form.append('model', model.id);
      form.append('reference_audio', await openAsBlob(recording), 'model-test.wav');
      form.append('reference_text', MODEL_TEST_SENTENCE);
      form.append('text', MODEL_TEST_SENTENCE);
      return finished(client, 'voice-cloning', await client.request<Job>('POST', '/v1/voice-cloning', form), label);
    }, 'cloning the sample voice');
    const t = timing(runs);
    return { ...base, input: { text: MODEL_TEST_SENTENCE }, result: { audio_seconds: t.audio_seconds, file: await saveArtifact(client, runs.timed, out) }, ...t };
  }
  throw new Error(`${model.id} is a ${model.capability} model; voxdesk models test checks speech-to-text, text-to-speech, noise-reduction, stem-separation and voice-cloning models`);
}

/** The report as people read it. */
export function formatReport(r: ModelTestReport): string {
  const lines = [`${r.id} (${r.name}, ${r.capability})`];
  lines.push('text' in r.input ? `spoke:  ${JSON.stringify(r.input.text)}` : `sample: ${r.input.seconds.toFixed(2)} s recording`);
  if ('text' in r.result) lines.push(`text:   ${JSON.stringify(r.result.text)}`);
  else lines.push(`audio:  ${r.result.audio_seconds.toFixed(2)} s${r.result.file ? ` → ${r.result.file}` : ''}`);
  const load = Math.max(0, r.first_run_seconds - r.processing_seconds);
  lines.push(
    `real-time factor ${r.real_time_factor.toFixed(3)} (${r.processing_seconds.toFixed(2)} s for ${r.audio_seconds.toFixed(2)} s of audio; ` +
      `loading the model took about ${load.toFixed(2)} s more)`,
  );
  return `${lines.join('\n')}\n`;
}

export interface ModelTestOptions {
  dataDir?: string;
  out?: string;
  json?: boolean;
}

export async function runModelTest(id: string, opts: ModelTestOptions): Promise<void> {
  // One worker, so the timed run finds the model the first run loaded.
  const session = await openClientSession({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), workers: 1 });
  try {
    let model: CatalogueRecord;
    try {
      model = await session.client.getModel(id);
    } catch (error) {
      throw new Error(`no model ${id} (voxdesk models list shows the downloadable ones): ${(error as Error).message}`, { cause: error });
    }
    const report = await testModel(session.client, model, opts.out);
    process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  } finally {
    await session.close();
  }
}
