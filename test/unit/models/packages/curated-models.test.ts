/** The curated list is well-formed, covers what the product needs, and its pins match the files in ../shared. */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CURATED_LIST_VERSION, CURATED_PACKAGES } from '../../../../src-main/models/packages/curated-models.js';
import { familyCapability } from '../../../../src-main/models/family-engines.js';
import { SHARED } from '../../../helpers/system.js';

describe('curated models', () => {
  it('has a version and unique, safe ids', () => {
    expect(CURATED_LIST_VERSION).toBeGreaterThanOrEqual(1);
    const ids = CURATED_PACKAGES.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9][a-z0-9._-]{0,63}$/);
  });

  it('pins every file with an https URL, a positive size, a licence and a sha256 with its source, or says why not', () => {
    for (const pkg of CURATED_PACKAGES) {
      expect(pkg.files.length, pkg.id).toBeGreaterThan(0);
      expect(pkg.licence.trim(), pkg.id).not.toBe('');
      expect(familyCapability(pkg.family), pkg.id).toBe(pkg.capability);
      for (const f of pkg.files) {
        expect(f.url, pkg.id).toMatch(/^https:\/\//);
        expect(Number.isInteger(f.sizeBytes) && f.sizeBytes > 0, pkg.id).toBe(true);
        if (f.sha256 !== null) {
          expect(f.sha256, pkg.id).toMatch(/^[0-9a-f]{64}$/);
          expect(f.pinSource?.trim().length ?? 0, `${pkg.id}: where its sha256 comes from (pinSource)`).toBeGreaterThan(10);
          expect(f.unconfirmed, pkg.id).toBeUndefined();
        } else {
          expect(f.unconfirmed?.trim().length ?? 0, `${pkg.id}: why its sha256 is not pinned (unconfirmed)`).toBeGreaterThan(10);
        }
        if (f.extract) expect(f.url.endsWith('.tar.bz2'), pkg.id).toBe(true);
      }
    }
  });

  it('names a spec family only on recognizers, each label at most as the spec uses it, and a speed class on every package', () => {
    for (const pkg of CURATED_PACKAGES) {
      expect(pkg.speedClass, pkg.id).toBeDefined();
      if (pkg.specFamily) expect(pkg.capability, pkg.id).toBe('asr');
    }
    const by = (label: string) => CURATED_PACKAGES.filter((p) => p.specFamily === label).map((p) => p.id);
    expect(by('W-turbo')).toEqual(['whisper-large-v3-turbo']);
    expect(by('W-full')).toEqual(['whisper-large-v3']);
    expect(by('P3')).toEqual(['parakeet-tdt-0.6b-v3']);
    expect(by('P2')).toEqual(['parakeet-tdt-0.6b-v2']);
    expect(by('C-flash')).toEqual(['canary-180m-flash']);
    expect(by('P-ctc')).toEqual(['parakeet-tdt-ctc-110m-en']);
  });

  it('offers a neural voice for each of the languages issue 34 names', () => {
    const EU = ['bg', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'hu', 'ga', 'it', 'lv', 'lt', 'mt', 'pl', 'pt', 'ro', 'sk', 'sl', 'es', 'sv'];
    const wanted = [...EU, 'zh', 'ja', 'ko', 'hi', 'ar', 'ru', 'tr', 'uk', 'vi', 'id'];
    const voiced = new Set(CURATED_PACKAGES.filter((p) => p.capability === 'tts').flatMap((p) => p.languages));
    expect(wanted.filter((code) => !voiced.has(code))).toEqual([]);
  });

  it('covers the families the product needs', () => {
    const families = new Set(CURATED_PACKAGES.map((p) => p.family));
    for (const f of ['moonshine', 'whisper', 'nemo-transducer', 'sense-voice', 'silero-vad', 'speaker-embedding', 'pyannote-segmentation', 'gtcrn', 'piper', 'kokoro', 'matcha', 'kitten', 'dpdfnet', 'language-id']) {
      expect(families.has(f as never), f).toBe(true);
    }
    expect(CURATED_PACKAGES.some((p) => p.id === 'parakeet-tdt-0.6b-v2')).toBe(true);
  });

  it('pins the same bytes as the copies of upstream files in ../shared/models', () => {
    const shared: Record<string, string> = {
      'gtcrn-simple': 'gtcrn_simple.onnx',
      'silero-vad-v5': 'silero_vad_v5.onnx',
      'pyannote-segmentation-3-0': 'pyannote-segmentation-3-0.int8.onnx',
    };
    for (const [id, file] of Object.entries(shared)) {
      const pkg = CURATED_PACKAGES.find((p) => p.id === id)!;
      const path = join(SHARED, 'models', file);
      const pin = pkg.files[0]!;
      expect(pin.sha256, `${id} vs ${basename(path)}`).toBe(createHash('sha256').update(readFileSync(path)).digest('hex'));
      expect(pin.sizeBytes).toBe(statSync(path).size);
    }
  });
});
