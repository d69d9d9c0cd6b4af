/**
 * Silero VAD ships inside Voxdesk (resources/models, models/packages/built-in-models.ts): on a fresh data dir, with
 * nothing downloaded, the model manager lists it as installed and built in, a pull answers at once, it cannot be
 * removed, every offline recognizer is live, and PocketSphinx dictates jfk.wav over the WebSocket.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pocketsphinxModelSource } from '../../../src-main/engines/asr/pocketsphinx-models.js';
import { LiveClient } from '../../helpers/live-harness.js';
import { ROOT, startTestService, testModelSource, type TestService } from '../../helpers/service.js';
import { requireCommand, requireFile } from '../../helpers/system.js';
import { JFK_TEXT, JFK_WAV, pcmOf, sendPcm, silence, wordsOf } from '../../helpers/dictation-fixtures.js';
import { scaled } from '../../helpers/time-scale.js';

let t: TestService;
const auth = (): Record<string, string> => ({ authorization: `Bearer ${t.key}` });

beforeAll(async () => {
  requireCommand('pocketsphinx_continuous', 'pocketsphinx');
  requireFile('/usr/share/pocketsphinx/model/en-us/en-us/mdef', 'pocketsphinx-en-us');
  t = await startTestService({ builtInModels: true, extraModelSources: [testModelSource, pocketsphinxModelSource] });
});
afterAll(async () => t?.stop());

describe('the built-in Silero VAD', () => {
  it('is installed and built in on a fresh data dir: listed so, a pull answers installed, a remove is refused', async () => {
    const list = (await (await fetch(`${t.url}/v1/local/models`, { headers: auth() })).json()) as { data: Record<string, unknown>[] };
    const vad = list.data.find((p) => p.id === 'silero-vad-v5');
    expect(vad).toMatchObject({
      state: 'installed',
      installed: true,
      built_in: true,
      verified: true,
      licence: 'MIT',
      capability: 'support',
      size_bytes: 2_327_524,
      dir: join(ROOT, 'resources', 'models'),
      progress: null,
    });
    expect(list.data.filter((p) => p.id !== 'silero-vad-v5').every((p) => p.built_in === false)).toBe(true);

    const pulled = await fetch(`${t.url}/v1/local/models/silero-vad-v5/download`, { method: 'POST', headers: auth() });
    expect(pulled.status).toBeLessThan(300);
    expect(await pulled.json()).toMatchObject({ state: 'installed', built_in: true });

    const removed = await fetch(`${t.url}/v1/local/models/silero-vad-v5`, { method: 'DELETE', headers: auth() });
    expect(removed.status).toBe(409);
    expect(await removed.json()).toMatchObject({ error: { code: 'conflict', message: expect.stringContaining('built into Voxdesk') } });
    expect(t.service.models.supportModelPath('silero-vad')).toBe(join(ROOT, 'resources', 'models', 'silero_vad_v5.onnx'));
  });

  it('makes PocketSphinx live with nothing downloaded, and it dictates jfk.wav', { timeout: scaled(180_000) }, async () => {
    const models = ((await (await fetch(`${t.url}/v1/models?include_unavailable=true`)).json()) as { data: { id: string; live: boolean }[] }).data;
    expect(models.find((m) => m.id === 'pocketsphinx-en-us')?.live).toBe(true);

    const jfk = pcmOf(JFK_WAV);
    const c = await LiveClient.open(`${t.url.replace('http', 'ws')}/v1/speech-to-text/realtime?model=pocketsphinx-en-us`, auth());
    expect((await c.waitFor('session.created')).session).toMatchObject({ model: 'pocketsphinx-en-us', mode: 'vad' });
    await sendPcm((frame) => c.ws.send(frame), Buffer.concat([jfk.pcm, silence(1)]), jfk.sampleRate, { frameSeconds: 0.1, speed: 2 });
    c.send({ type: 'input_audio.end' });
    await c.waitFor('session.done', scaled(120_000));
    const finals = c.json().filter((m) => m.type === 'transcript.final');
    const said = new Set(wordsOf(finals.map((f) => f.text).join(' ')));
    const reference = wordsOf(JFK_TEXT);
    expect(reference.filter((w) => said.has(w)).length / reference.length).toBeGreaterThanOrEqual(0.6);
  });
});
