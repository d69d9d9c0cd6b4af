/**
 * Voice cloning, continuation and conversion forwarded to a hosted Voxdesk: the hosted instance runs the tiny ZipVoice
 * (scripts/tiny-models/make_tiny_product_models.py) and PocketSphinx; the local one lists it as remote:tiny-zipvoice
 * for the three products and forwards each request with its parts (reference_audio or audio, reference_text, text,
 * file). The recording is sent to the host with the request it came in, never fetched from elsewhere; the result
 * comes back marked synthetic.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueRecord, Job } from '../../../src-main/common/api-types.js';
import { encodeWav } from '../../../src-main/engines/audio/wav.js';
import { generatedModel, PRODUCT_MODELS_SCRIPT } from '../../helpers/generated-models.js';
import { startForwardingTo, type LocalInstance } from '../../helpers/local-instance.js';
import type { TestService } from '../../helpers/service.js';
import { JFK, api, startHosted, waitForJob } from '../../helpers/two-instances.js';
import { scaled } from '../../helpers/time-scale.js';

let hosted: TestService;
let local: LocalInstance;

const voice = new Blob([new Uint8Array(encodeWav([Float32Array.from({ length: 16000 * 2 }, (_, i) => 0.3 * Math.sin(i / 5))], 16000))], { type: 'audio/wav' });

beforeAll(async () => {
  hosted = await startHosted({ holdSeconds: 8 });
  const imported = await api<unknown>(hosted.url, hosted.key, 'POST', '/v1/local/models/import', { path: generatedModel('zipvoice-distill', PRODUCT_MODELS_SCRIPT), id: 'tiny-zipvoice' });
  expect(imported.status).toBe(202);
  await hosted.service.models.whenImported('tiny-zipvoice');
  local = await startForwardingTo(hosted, { holdSeconds: 2 });
}, scaled(240_000));

afterAll(async () => {
  await local?.stop();
  await hosted?.stop();
});

async function finished(product: string, job: Job): Promise<Job> {
  return job.finished_at ? job : waitForJob(local.url, local.key, product, job.id, scaled(240_000));
}

describe('zero-shot voices forwarded to a hosted Voxdesk', () => {
  it('lists the hosted zero-shot voice for voice-cloning, continuation and conversion', async () => {
    const { body } = await api<CatalogueRecord>(local.url, local.key, 'GET', '/v1/models/remote:tiny-zipvoice');
    expect(body).toMatchObject({ provider: 'remote', capability: 'voice_cloning', status: 'available' });
    expect([...body.products].sort()).toEqual(['voice-cloning', 'voice-continuation', 'voice-conversion']);
  });

  it('forwards a voice-cloning and a voice-continuation request with their recordings and words', { timeout: scaled(300_000) }, async () => {
    const clone = new FormData();
    clone.append('model', 'remote:tiny-zipvoice');
    clone.append('reference_audio', voice, 'voice.wav');
    clone.append('reference_text', 'hello there');
    clone.append('text', 'Hello from far away.');
    const cloned = await finished('voice-cloning', (await api<Job>(local.url, local.key, 'POST', '/v1/voice-cloning', clone)).body);
    expect(cloned, JSON.stringify(cloned)).toMatchObject({ status: 'succeeded', model_id: 'remote:tiny-zipvoice' });
    expect(cloned.result).toMatchObject({ synthetic: true, reference_text: 'hello there' });
    expect((await fetch(cloned.result!.artifacts![0]!.url)).status).toBe(200);

    const cont = new FormData();
    cont.append('model', 'remote:tiny-zipvoice');
    cont.append('params', JSON.stringify({ include_original: false }));
    cont.append('audio', voice, 'start.wav');
    cont.append('reference_text', 'the start');
    cont.append('text', 'And the end.');
    const continued = await finished('voice-continuation', (await api<Job>(local.url, local.key, 'POST', '/v1/voice-continuation', cont)).body);
    expect(continued, JSON.stringify(continued)).toMatchObject({ status: 'succeeded' });
    expect(continued.result).toMatchObject({ synthetic: true, continuation_start: 0, voice_source: 'audio' });
  });

  it('forwards a voice-conversion with the recording and the voice', { timeout: scaled(300_000) }, async () => {
    const form = new FormData();
    form.append('model', 'remote:tiny-zipvoice');
    form.append('file', new Blob([readFileSync(JFK)], { type: 'audio/wav' }), 'jfk.wav');
    form.append('reference_audio', voice, 'voice.wav');
    form.append('reference_text', 'hello there');
    const converted = await finished('voice-conversion', (await api<Job>(local.url, local.key, 'POST', '/v1/voice-conversion', form)).body);
    expect(converted, JSON.stringify(converted)).toMatchObject({ status: 'succeeded' });
    expect(converted.result).toMatchObject({ synthetic: true, voice_source: 'reference_audio' });
    expect(Number(converted.duration_seconds)).toBeCloseTo(11, 1);
  });
});
