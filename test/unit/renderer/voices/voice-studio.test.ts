/**
 * The Voices tab's state (src-renderer/src/voices/voice-studio.svelte.ts) against a real service with the page's
 * AppState as host: the tiny Kokoro v0.19 imported through the service's route; a voice designed (preview), saved,
 * sampled, renamed and deleted; a cloned voice saved from a recording; a design nothing can meet ends in its error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { designParams, VoiceStudio, type DesignChoice } from '../../../../src-renderer/src/voices/voice-studio.svelte.js';
import { useConnectedApp } from '../../../helpers/renderer-host.js';
import { SHARED } from '../../../helpers/system.js';
import { TINY } from '../../../helpers/tiny-archives.js';
import { scaled } from '../../../helpers/time-scale.js';

const ctx = useConnectedApp({ workers: 1, holdSeconds: 30 });

beforeAll(async () => {
  const r = await ctx.app.api.raw('POST', '/v1/local/models/import', { path: join(TINY, 'tiny-kokoro'), id: 'tiny-kokoro' });
  expect(r.status).toBe(202);
  await ctx.svc.service.models.whenImported('tiny-kokoro');
  await ctx.app.loadModels();
}, scaled(120_000));

const choice = (over: Partial<DesignChoice> = {}): DesignChoice => ({
  model: 'tiny-kokoro-voice-design', description: 'a British woman', gender: '', age: '', accent: '', pitch: '', pace: '', seed: 0, language: 'en', text: 'hello world', ...over,
});

describe('VoiceStudio', () => {
  it('sends only the attributes chosen, with the seed and the description language', () => {
    expect(designParams(choice({ pace: 'slow', seed: 3, language: 'de' }))).toEqual({ pace: 'slow', seed: 3, language: 'de' });
  });

  it('previews a design, saves it, plays a sample, renames and deletes it', { timeout: scaled(120_000) }, async () => {
    expect(ctx.app.available('voice_design').map((m) => m.id)).toContain('tiny-kokoro-voice-design');
    const studio = new VoiceStudio(() => ctx.app.api, 50);
    await studio.design(choice());
    expect(studio.designError).toBeNull();
    expect(studio.preview).toMatchObject({ status: 'succeeded', product: 'voice-design' });
    expect(studio.preview!.result!.designed_voice!.saved_voice).toBeNull();
    await studio.design(choice(), 'Narrator');
    expect(studio.preview!.result!.designed_voice!.saved_voice).toMatchObject({ name: 'Narrator' });
    expect(studio.voices.map((v) => v.name)).toEqual(['Narrator']);
    const [voice] = studio.voices;
    await studio.sample(voice!, 'hello');
    expect(studio.samples[voice!.id]).toMatchObject({ status: 'succeeded', product: 'text-to-speech' });
    await studio.rename(voice!.id, 'Storyteller');
    expect(studio.voices[0]!.name).toBe('Storyteller');
    await studio.remove(voice!.id);
    expect(studio.voices).toEqual([]);
  });

  it('saves a cloned voice from a recording', { timeout: scaled(60_000) }, async () => {
    const studio = new VoiceStudio(() => ctx.app.api, 50);
    const audio = new Blob([new Uint8Array(readFileSync(join(SHARED, 'audio', 'jfk.wav')))], { type: 'audio/wav' });
    await studio.clone({ name: 'Me', referenceText: 'And so, my fellow Americans', audio, filename: 'me.wav' });
    expect(studio.voices).toEqual([expect.objectContaining({ name: 'Me', kind: 'cloned' })]);
  });

  it('keeps the service\'s reason when nothing can meet the design', { timeout: scaled(60_000) }, async () => {
    const studio = new VoiceStudio(() => ctx.app.api, 50);
    await studio.design(choice({ description: 'a Spanish man' }));
    expect(studio.designError).toMatchObject({ code: 'invalid_params' });
    expect(studio.designing).toBe(false);
  });
});
