/**
 * A meeting capture whose other side carries two different real voices (test/helpers/two-voices.ts), played into the
 * default output of a private PulseAudio (test/helpers/capture-pulse.ts) while jfk.wav is said into the microphone,
 * with the real pyannote segmentation model and the tiny random-weight speaker embedding installed as a person
 * installs them (POST /v1/local/models/import): the live transcript gives the other side's utterances provisional
 * speakers, and the stopped capture's job has "You" and at least two speakers of the other side (the stop answers
 * as soon as the other side is being diarized, and the capture is followed to its job). A SIGKILL of
 * `voxdesk serve` while the stopped capture's other side is being diarized: the next start diarizes it again, to
 * the same speakers, and a SIGTERM then leaves the diarization to the next start instead of holding the shutdown.
 * (Without the models, one "Other side": capture.test.ts.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { Capture, CaptureServerMessage } from '../../../../src-main/common/capture-protocol.js';
import { pocketsphinxModelSource } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import { SpeakerProcess } from '../../../../src-main/engines/capture/speaker-process.js';
import { labelTurns } from '../../../../src-main/service/capture/capture-speakers.js';
import { captureApi, followCapture, untilCaptureSaved, untilRecoveredJob, type CaptureFollower } from '../../../helpers/capture-client.js';
import { startCapturePulse, type CapturePulse } from '../../../helpers/capture-pulse.js';
import { JFK_WAV } from '../../../helpers/dictation-fixtures.js';
import { startServeProcess, startTestService, stopServe, type ServeProcess, type TestService } from '../../../helpers/service.js';
import { requireCommand, requireFile } from '../../../helpers/system.js';
import { installSpeakerModels } from '../../../helpers/tiny-models-installed.js';
import { TEST_DIARIZATION_MODELS, twoVoicesRecording } from '../../../helpers/two-voices.js';
import { silentLog } from '../../../../src-main/common/log.js';
import { scaled } from '../../../helpers/time-scale.js';

const MODEL = 'pocketsphinx-en-us';
const OTHER_SIDE_N = /^Other side \d+$/;
let pulse: CapturePulse;
let twoVoices: string;
const audioDir = mkdtempSync(join(tmpdir(), 'voxdesk-capture-voices-'));

const api = captureApi;

type Final = Extract<CaptureServerMessage, { type: 'transcript.final' }>;
const finals = (messages: CaptureServerMessage[], side: 'microphone' | 'system'): Final[] => messages.filter((m): m is Final => m.type === 'transcript.final' && m.side === side && m.text !== '');

/** Starts a capture, says jfk.wav into the microphone and plays the two voices into the output, until both are heard. */
async function captureTwoVoices(url: string, key: string): Promise<{ id: string; socket: CaptureFollower }> {
  const started = await api<Capture>(url, '/v1/captures', key, { method: 'POST', body: { model: MODEL } });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const socket = followCapture(url, key, started.body.id);
  await Promise.all([pulse.play(JFK_WAV, 'mic'), pulse.play(twoVoices, 'speakers')]);
  // The last of the other side's three turns ends the recording: wait until its words are in.
  await socket.until((m) => finals(m, 'microphone').length > 0 && finals(m, 'system').some((f) => f.end > 22));
  return { id: started.body.id, socket };
}

beforeAll(() => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  requireFile(TEST_DIARIZATION_MODELS.segmentation, '../shared/models');
  requireFile(TEST_DIARIZATION_MODELS.embedding, '../shared/models/tiny');
  pulse = startCapturePulse();
  twoVoices = twoVoicesRecording(audioDir);
}, scaled(120_000));
afterAll(() => pulse?.stop());

describe('a meeting capture with two voices on the other side', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ builtInModels: true, extraModelSources: [pocketsphinxModelSource], capture: { env: pulse.env, platform: 'linux' } });
    await installSpeakerModels(t);
  }, scaled(120_000));
  afterAll(async () => t?.stop());

  it('labels the other side\'s utterances live, and its job has You and at least two speakers of the other side', async () => {
    const { id, socket } = await captureTwoVoices(t.url, t.key);
    // The stop answers once the other side is being diarized, and the capture is then followed to its job.
    const stopping = await api<Capture>(t.url, `/v1/captures/${id}/stop`, t.key, { method: 'POST' });
    expect(stopping.body).toMatchObject({ status: 'stopping', diarizing: true, job_id: null });
    const stopped = { body: await untilCaptureSaved<Capture>(t.url, t.key, id) };
    expect(stopped.body).toMatchObject({ status: 'done', diarizing: false });
    await socket.closed;
    // Live: every utterance of the other side carries a provisional speaker (or "Other side" when one was skipped).
    const live = finals(socket.messages, 'system');
    expect(live.every((f) => OTHER_SIDE_N.test(f.speaker) || f.speaker === 'Other side'), JSON.stringify(live)).toBe(true);
    expect(live.some((f) => OTHER_SIDE_N.test(f.speaker))).toBe(true);
    expect(finals(socket.messages, 'microphone').every((f) => f.speaker === 'You')).toBe(true);

    const job = (await api<Job>(t.url, `/v1/speech-to-text/${stopped.body.job_id}`, t.key)).body;
    expect(job.status).toBe('succeeded');
    const speakers = new Set(job.result!.segments!.map((s) => s.speaker));
    expect(speakers.has('You')).toBe(true);
    const others = [...speakers].filter((s) => s !== 'You');
    expect(others.every((s) => OTHER_SIDE_N.test(s!)), JSON.stringify(others)).toBe(true);
    expect(others.length).toBeGreaterThanOrEqual(2);
    expect(job.result!.speaker_diarization).toMatchObject({ status: 'diarized' });
    expect(job.result!.speaker_diarization!.speakers).toBeGreaterThanOrEqual(2);
    // The reader's first sentence and the other voice's (11.5–20 s into the played recording) are told apart.
    const other = job.result!.segments!.filter((s) => s.speaker !== 'You');
    const t0 = other[0]!.start;
    const second = other.find((s) => s.start <= t0 + 15 && s.end >= t0 + 15);
    expect(second?.speaker, JSON.stringify(other)).toBeDefined();
    expect(other[0]!.speaker, JSON.stringify(other)).not.toBe(second!.speaker);

    // Naming a speaker of the other side keeps their voice in the speaker library, as for any diarized transcript.
    const revision = (await api<{ revision: number }>(t.url, `/v1/speech-to-text/${job.id}/transcript`, t.key)).body.revision;
    const named = await api<{ revision: number }>(t.url, `/v1/speech-to-text/${job.id}/transcript`, t.key, {
      method: 'PATCH',
      body: { base_revision: revision, speakers: { [second!.speaker!]: 'Anna' } },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    const library = (await api<{ data: { name: string; samples: number }[] }>(t.url, '/v1/speakers', t.key)).body.data;
    expect(library).toContainEqual(expect.objectContaining({ name: 'Anna', samples: 1 }));
    // Given back its own key (what Ctrl+Z does), the voice leaves the library again.
    const undone = await api<unknown>(t.url, `/v1/speech-to-text/${job.id}/transcript`, t.key, {
      method: 'PATCH',
      body: { base_revision: named.body.revision, speakers: { [second!.speaker!]: second!.speaker! } },
    });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect((await api<{ data: { name: string }[] }>(t.url, '/v1/speakers', t.key)).body.data.map((p) => p.name)).not.toContain('Anna');
  }, scaled(600_000));
});

describe('a capture whose service ends while its other side is diarized', () => {
  let serve: ServeProcess | undefined;
  afterAll(async () => stopServe(serve));

  // SIGKILL: the crash. SIGTERM: a shutdown, which leaves the diarization to the next start instead of waiting for it.
  it.each(['SIGKILL', 'SIGTERM'] as const)('after a %s, is diarized again at the next start, to the same speakers', async (signal) => {
    await stopServe(serve);
    const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-capture-diarize-kill-'));
    const installer = await startTestService({ dataDir });
    await installSpeakerModels(installer);
    await installer.stop();
    const key = 'vdk_capture_diarize_kill_key_0123456789';
    const env = { ...pulse.env, VOXDESK_API_KEY: key };
    serve = await startServeProcess(dataDir, [], env);
    const url = serve.url;
    const { id } = await captureTwoVoices(url, key);
    const stopping = await api<Capture>(url, `/v1/captures/${id}/stop`, key, { method: 'POST' });
    expect(stopping.body, 'the capture was diarizing when it was killed').toMatchObject({ status: 'stopping', diarizing: true });
    serve.child.kill(signal);
    // A SIGTERM does not wait for the diarization: the capture is left for the next start (the test's timeout bounds it).
    expect(await serve.exited).toMatchObject(signal === 'SIGTERM' ? { code: 0 } : { signal: 'SIGKILL' });

    serve = await startServeProcess(dataDir, [], env);
    const recovered = await untilRecoveredJob<Job>(serve.url, key);
    expect(recovered.status).toBe('succeeded');
    const others = new Set(recovered.result!.segments!.map((s) => s.speaker).filter((s) => s !== 'You'));
    expect(others.size).toBeGreaterThanOrEqual(2);
    // The same speakers as the recording's other side diarized from start to end.
    const audio = await fetch(`${serve.url}/v1/speech-to-text/${recovered.id}/audio`, { headers: { authorization: `Bearer ${key}` } });
    const file = join(audioDir, 'recovered.wav');
    writeFileSync(file, new Uint8Array(await audio.arrayBuffer()));
    expect(readFileSync(file).subarray(0, 4).toString()).toBe('RIFF');
    const direct = new SpeakerProcess(TEST_DIARIZATION_MODELS, silentLog);
    try {
      const { labelOf } = labelTurns((await direct.diarize(file, 1)).turns);
      expect(recovered.result!.speaker_diarization).toEqual({ status: 'diarized', speakers: labelOf.size });
      for (const speaker of others) expect([...labelOf.values()]).toContain(speaker);
    } finally {
      direct.close();
    }
  }, scaled(600_000));
});
