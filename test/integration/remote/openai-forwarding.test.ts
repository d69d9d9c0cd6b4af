/**
 * The OpenAI-compatible routes with hosted models: a local service forwarding to a "hosted" one (real eSpeak NG and
 * PocketSphinx there). The official SDK asks the local service for `remote:` models; the jobs are forwarded like any
 * other, the answers are the hosted results (speech arrives whole once the hosted job is done, since a forwarded
 * job streams nothing), OpenAI's voice names map onto the hosted eSpeak NG's voices, and both sides keep the jobs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src-main/common/api-types.js';
import type { TestService } from '../../helpers/service.js';
import { startForwardingTo, type LocalInstance } from '../../helpers/local-instance.js';
import { JFK, listJobs, startHosted } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

let hosted: TestService;
let local: LocalInstance;
let client: OpenAI;
const dir = mkdtempSync(join(tmpdir(), 'vox-oai-remote-'));

beforeAll(async () => {
  hosted = await startHosted({ holdSeconds: 8 });
  local = await startForwardingTo(hosted, { holdSeconds: 2 });
  client = new OpenAI({ baseURL: `${local.url}/v1`, apiKey: local.key, maxRetries: 0, timeout: scaled(180_000) });
});

afterAll(async () => {
  await local?.stop();
  await hosted?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('OpenAI-compatible routes on hosted models', () => {
  it('speech on remote:espeak-ng: nova is the hosted eSpeak NG’s en-us f2, the audio is the hosted artifact', async () => {
    const response = await client.audio.speech.create({ model: 'remote:espeak-ng', voice: 'nova', input: 'Hello from the hosted side.', response_format: 'wav' });
    const jobId = response.headers.get('x-voxdesk-job-id')!;
    const wav = Buffer.from(await response.arrayBuffer());
    writeFileSync(join(dir, 'hosted.wav'), wav);
    expect(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate', '-of', 'csv=p=0', join(dir, 'hosted.wav')]).toString().trim()).toBe('pcm_s16le,24000');
    const localJob = local.repos.jobs.get(jobId)!;
    expect(localJob).toMatchObject({ status: 'succeeded', model_id: 'remote:espeak-ng' });
    expect(JSON.parse(localJob.params_json)).toMatchObject({ voice: 'en-us', speaker: 'f2', output_format: 'wav', output_sample_rate: 24000 });
    const hostedJobs: Job[] = await listJobs(hosted.url, hosted.key);
    expect(hostedJobs.some((j) => j.model_id === 'espeak-ng' && j.status === 'succeeded')).toBe(true);
  }, scaled(120_000));

  it('transcription on remote:pocketsphinx-en-us as verbose_json with words', async () => {
    const result = await client.audio.transcriptions.create({
      file: await toFile(readFileSync(JFK), 'jfk.wav'),
      model: 'remote:pocketsphinx-en-us',
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    expect(result).toMatchObject({ task: 'transcribe', duration: 11 });
    expect(result.words!.length).toBeGreaterThan(5);
  }, scaled(180_000));
});
