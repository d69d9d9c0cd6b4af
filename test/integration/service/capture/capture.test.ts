/**
 * Meeting capture against the whole service with a real sound server (test/helpers/capture-pulse.ts): jfk.wav played
 * into the microphone and other recordings into the default output are captured through PulseAudio (parec), as two
 * channels of one recording, transcribed live by PocketSphinx through Silero VAD and labelled by side; the job is an
 * ordinary transcription (recording, transcript with speakers, search). Also: the silent-side warning, a SIGKILL of
 * `voxdesk serve` during a capture losing at most the last chunk, bad requests, and 404 for every other account.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Job } from '../../../../src-main/common/api-types.js';
import type { Capture, CaptureServerMessage, CaptureSources } from '../../../../src-main/common/capture-protocol.js';
import { pocketsphinxModelSource } from '../../../../src-main/engines/asr/pocketsphinx-models.js';
import { decodeWav } from '../../../../src-main/engines/audio/wav.js';
import { captureApi, followCapture, untilRecoveredJob } from '../../../helpers/capture-client.js';
import { startCapturePulse, type CapturePulse } from '../../../helpers/capture-pulse.js';
import { JFK_WAV } from '../../../helpers/dictation-fixtures.js';
import { startServeProcess, startTestService, stopServe, type ServeProcess, type TestService } from '../../../helpers/service.js';
import { requireCommand, requireFile, SHARED } from '../../../helpers/system.js';
import { scaled } from '../../../helpers/time-scale.js';

const MODEL = 'pocketsphinx-en-us';
const SILENT_SECONDS = 4;
let pulse: CapturePulse;
let t: TestService;
let otherSide: string;

const headers = (key = t.key): Record<string, string> => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

const api = captureApi;
const follow = followCapture;

function finals(messages: CaptureServerMessage[], side: 'microphone' | 'system'): string[] {
  return messages.flatMap((m) => (m.type === 'transcript.final' && m.side === side && m.text ? [m.text] : []));
}

beforeAll(async () => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
  requireCommand('sox', 'sox');
  pulse = startCapturePulse();
  // The other side: three sentences of another speaker, about 10 s.
  const dir = mkdtempSync(join(tmpdir(), 'voxdesk-capture-audio-'));
  const hifi = join(SHARED, 'audio/hifitts-6097');
  const files = readdirSync(hifi).filter((f) => f.endsWith('.wav')).sort().slice(0, 3).map((f) => join(hifi, f));
  otherSide = join(dir, 'other-side.wav');
  execFileSync('sox', [...files, '-r', '16000', '-c', '1', otherSide]);
  t = await startTestService({
    builtInModels: true,
    extraModelSources: [pocketsphinxModelSource],
    capture: { env: pulse.env, silentSeconds: SILENT_SECONDS, platform: 'linux' },
  });
}, scaled(120_000));
afterAll(async () => {
  await t?.stop();
  pulse?.stop();
});

describe('meeting capture through PulseAudio', () => {
  // A test that failed midway leaves no capture running for the next (which would get 409).
  afterEach(async () => {
    const { body } = await api<{ data: Capture[] }>(t.url, '/v1/captures', t.key);
    for (const c of body.data.filter((c) => c.status === 'recording')) await api(t.url, `/v1/captures/${c.id}/stop`, t.key, { method: 'POST' });
  }, scaled(60_000));

  it('lists the default microphone and the monitor of the default output', async () => {
    const { status, body } = await api<CaptureSources>(t.url, '/v1/captures/sources', t.key);
    expect(status).toBe(200);
    expect(body.backend).toBe('pulse');
    expect(body.devices).toContainEqual({ id: 'mic', name: 'Test-microphone', kind: 'microphone', default: true });
    expect(body.devices.find((d) => d.kind === 'system' && d.default)?.id).toBe('speakers.monitor');
  });

  it('records both sides as two channels, transcribes them live labelled by side, and becomes an ordinary transcription job', async () => {
    const started = await api<Capture>(t.url, '/v1/captures', t.key, { method: 'POST', body: { model: MODEL } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ status: 'recording', model: MODEL, sources: { microphone: { device: 'mic', state: 'recording' }, system: { device: 'speakers.monitor', state: 'recording' } } });
    const again = await api<{ error: { code: string } }>(t.url, '/v1/captures', t.key, { method: 'POST', body: { model: MODEL } });
    expect(again.status).toBe(409);
    const socket = follow(t.url, t.key, started.body.id);
    await Promise.all([pulse.play(JFK_WAV, 'mic'), pulse.play(otherSide, 'speakers')]);
    await socket.until((m) => finals(m, 'microphone').join(' ').includes('country') && finals(m, 'system').length > 0);
    const stopped = await api<Capture>(t.url, `/v1/captures/${started.body.id}/stop`, t.key, { method: 'POST' });
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('done');
    expect(stopped.body.job_id).toMatch(/^job_/);
    await socket.closed;
    const done = socket.messages.find((m) => m.type === 'capture.done');
    expect(done).toMatchObject({ job_id: stopped.body.job_id });
    const live = socket.messages.filter((m) => m.type === 'transcript.final' && m.text);
    expect(live.every((m) => m.type === 'transcript.final' && m.speaker === (m.side === 'microphone' ? 'You' : 'Other side'))).toBe(true);

    const job = (await api<Job>(t.url, `/v1/speech-to-text/${stopped.body.job_id}`, t.key)).body;
    expect(job.status).toBe('succeeded');
    expect(job.name).toMatch(/^Meeting \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    const speakers = new Set(job.result!.segments!.map((s) => s.speaker));
    expect(speakers).toEqual(new Set(['You', 'Other side']));
    // Without the speaker models the other side is one speaker, and the job says why.
    expect(job.result!.speaker_diarization).toMatchObject({ status: 'not_available', message: expect.stringContaining('not installed') });
    expect(job.result!.segments!.filter((s) => s.speaker === 'You').map((s) => s.text).join(' ')).toContain('country');
    // The recording: two channels, jfk.wav on the left (the microphone), the other recording on the right.
    const audio = await fetch(`${t.url}/v1/speech-to-text/${job.id}/audio`, { headers: headers() });
    expect(audio.status).toBe(200);
    const wav = decodeWav(new Uint8Array(await audio.arrayBuffer()));
    expect(wav.channels).toHaveLength(2);
    expect(wav.sampleRate).toBe(16_000);
    const loud = (x: Float32Array): number => x.filter((v) => Math.abs(v) > 0.05).length / 16_000;
    expect(loud(wav.channels[0]!)).toBeGreaterThan(2);
    expect(loud(wav.channels[1]!)).toBeGreaterThan(2);
    // Searchable like any transcript.
    const search = await api<{ data: { job_id: string }[] }>(t.url, `/v1/search?q=country`, t.key);
    expect(search.body.data.map((h) => h.job_id)).toContain(job.id);
    expect((await api<Capture>(t.url, `/v1/captures/${started.body.id}`, t.key)).body.status).toBe('done');
  }, scaled(480_000));

  it('warns when one side has been silent while the other talks, and clears the warning when it is heard again', async () => {
    pulse.pactl('set-source-mute', 'mic', '1');
    const started = await api<Capture>(t.url, '/v1/captures', t.key, { method: 'POST', body: { model: MODEL } });
    expect(started.status).toBe(201);
    const socket = follow(t.url, t.key, started.body.id);
    const jfk = pulse.playing(JFK_WAV, 'mic');
    await pulse.play(otherSide, 'speakers');
    await socket.until((m) => m.some((x) => x.type === 'capture.warning'));
    const warning = socket.messages.find((m) => m.type === 'capture.warning');
    expect(warning).toMatchObject({ warning: { code: 'silent_side', side: 'microphone' } });
    expect((await api<Capture>(t.url, `/v1/captures/${started.body.id}`, t.key)).body.warnings).toMatchObject([{ code: 'silent_side', side: 'microphone' }]);
    jfk.kill();
    pulse.pactl('set-source-mute', 'mic', '0');
    await pulse.play(JFK_WAV, 'mic');
    await socket.until((m) => m.some((x) => x.type === 'capture.warning_cleared'));
    const stopped = await api<Capture>(t.url, `/v1/captures/${started.body.id}/stop`, t.key, { method: 'POST' });
    // The microphone is heard again (the other side, quiet now while you talk, may be warned about in turn).
    expect(stopped.body.warnings.filter((w) => w.side === 'microphone')).toEqual([]);
  }, scaled(480_000));

  it('refuses bad requests with the field named', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 400, 'model_required'],
      [{ model: MODEL, speakers: 2 }, 400, 'unsupported_param'],
      [{ model: MODEL, microphone: 3 }, 400, 'invalid_params'],
      [{ model: MODEL, microphone: 'no-such-device' }, 422, 'capture_unavailable'],
      [{ model: MODEL, microphone: 'speakers.monitor' }, 400, 'invalid_params'],
      [{ model: MODEL, language: 'xx' }, 400, 'invalid_params'],
      [{ model: 'no-such-model' }, 404, 'not_found'],
      [{ model: 'espeak-ng' }, 422, 'model_unavailable'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await api<{ error: { code: string; message: string } }>(t.url, '/v1/captures', t.key, { method: 'POST', body });
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await api<{ error: { code: string } }>(t.url, '/v1/captures/cap_none', t.key)).status).toBe(404);
  });

  it('answers 404 to every other account, on every route and the socket', async () => {
    const other = await t.service.keys.createKey('someone-else');
    for (const [method, path] of [['GET', '/v1/captures/sources'], ['GET', '/v1/captures'], ['POST', '/v1/captures'], ['GET', '/v1/captures/cap_x'], ['POST', '/v1/captures/cap_x/stop']] as const) {
      const answer = await api<{ error: { code: string } }>(t.url, path, other, { method, ...(method === 'POST' ? { body: { model: MODEL } } : {}) });
      expect([path, answer.status, answer.body.error.code]).toEqual([path, 404, 'not_found']);
    }
    const started = await api<Capture>(t.url, '/v1/captures', t.key, { method: 'POST', body: { model: MODEL } });
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/v1/captures/${started.body.id}/realtime`, { headers: { authorization: `Bearer ${other}` } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(refused).toBe(404);
    await api(t.url, `/v1/captures/${started.body.id}/stop`, t.key, { method: 'POST' });
  }, scaled(60_000));
});

describe('a capture cut short by SIGKILL', () => {
  let serve: ServeProcess | undefined;
  afterAll(async () => stopServe(serve));

  it('loses at most the last chunk: the next start saves the committed recording and finals as a job', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voxdesk-capture-kill-'));
    const key = 'vdk_capture_kill_test_key_0123456789';
    const env = { ...pulse.env, VOXDESK_API_KEY: key };
    serve = await startServeProcess(dataDir, [], env);
    const started = await api<Capture>(serve.url, '/v1/captures', key, { method: 'POST', body: { model: MODEL } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const socket = follow(serve.url, key, started.body.id);
    const playing = pulse.playing(JFK_WAV, 'mic');
    await socket.until((m) => finals(m, 'microphone').length > 0);
    const capture = async (): Promise<Capture> => (await api<Capture>(serve!.url, `/v1/captures/${started.body.id}`, key)).body;
    // The first final is journalled with the next chunk: kill once that chunk is committed, and past 6 s.
    const atFirstFinal = (await capture()).duration_seconds;
    let seen: Capture;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      seen = await capture();
    } while (seen.committed_seconds < Math.max(6, atFirstFinal + 0.1));
    serve.child.kill('SIGKILL');
    await serve.exited;
    playing.kill();
    const liveFinals = finals(socket.messages, 'microphone');

    serve = await startServeProcess(dataDir, [], env);
    const recovered: Job | undefined = await untilRecoveredJob<Job>(serve.url, key);
    expect(recovered!.status).toBe('succeeded');
    // At most the last chunk (2 s) of what had been received when it was last seen is missing.
    expect(Number(recovered!.duration_seconds)).toBeGreaterThanOrEqual(seen.duration_seconds - 2 - 0.01);
    const audio = await fetch(`${serve.url}/v1/speech-to-text/${recovered!.id}/audio`, { headers: headers(key) });
    const wav = decodeWav(new Uint8Array(await audio.arrayBuffer()));
    expect(wav.channels).toHaveLength(2);
    expect(wav.channels[0]!.length / 16_000).toBeCloseTo(Number(recovered!.duration_seconds), 1);
    // The finals journalled with the committed chunks are its transcript, labelled.
    const text = recovered!.result!.segments!.filter((s) => s.speaker === 'You').map((s) => s.text);
    expect(text.length).toBeGreaterThan(0);
    expect(liveFinals.join(' ')).toContain(text[0]!);
    // Nothing is left to recover twice.
    expect(readdirSync(join(dataDir, 'uploads'), { recursive: true }).map(String).filter((f) => f.includes('.capture.'))).toEqual([]);
  }, scaled(480_000));
});
