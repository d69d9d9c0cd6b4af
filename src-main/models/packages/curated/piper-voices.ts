/**
 * Piper voices, one per language the curated list otherwise has no neural voice for (issue 34, item 2: a neural
 * voice for each EU language and for Arabic, Russian, Turkish, Ukrainian, Vietnamese and Indonesian), from
 * sherpa-onnx's tts-models release (`vits-piper-<locale>-<name>-<quality>.tar.bz2`: the .onnx, its .onnx.json, tokens
 * and espeak-ng-data). sherpa-onnx publishes no checksum file for these assets, and the values public projects pin
 * for them disagree with one another or come from one project only, so each is `unconfirmed` — listed with its
 * language, refused on pull with the reason until a pin is confirmed (the person can add it by URL with a sha256 they
 * trust). Sizes are those of the medium Piper archives (about 64 MB; low-quality ones about 30 MB), not measured.
 */
import type { ModelPackage } from '../model-package.js';
import { SHERPA } from './release-hosts.js';

interface PiperVoice {
  /** `<locale>-<name>-<quality>` as in the release asset's name (`cs_CZ-jirka-medium`). */
  voice: string;
  language: string;
  languageName: string;
  speakers?: number;
}

const UNCONFIRMED =
  'sherpa-onnx publishes no checksum file for its tts-models assets, and no digest for this one is pinned by two ' +
  'public projects that agree (searched 2026-11); the size is that of a typical archive of this quality, not measured';

function piper({ voice, language, languageName, speakers = 1 }: PiperVoice): ModelPackage {
  const [locale, name, quality] = voice.split('-') as [string, string, string];
  // Piper's medium and high voices run at 22.05 kHz, its low and x_low ones at 16 kHz.
  const sampleRate = quality === 'medium' || quality === 'high' ? 22_050 : 16_000;
  return {
    id: `piper-${voice.toLowerCase().replace(/_/g, '-')}`,
    name: `Piper ${locale} ${name} (${quality.replace('_', ' ')})`,
    description: `Piper VITS voice, ${languageName}, ${speakers === 1 ? 'one speaker' : `${speakers} speakers`}, ${sampleRate / 1000} kHz (sherpa-onnx package with espeak-ng data).`,
    capability: 'tts',
    family: 'piper',
    languages: [language],
    licence: 'Piper voice: see MODEL_CARD in the package (the dataset it was trained on sets the terms)',
    version: `vits-piper-${voice}`,
    numSpeakers: speakers,
    sampleRate,
    speedClass: 'fast',
    files: [
      {
        url: `${SHERPA}/tts-models/vits-piper-${voice}.tar.bz2`,
        sha256: null,
        unconfirmed: UNCONFIRMED,
        sizeBytes: quality === 'medium' ? 64_000_000 : 30_000_000,
        path: '',
        extract: 'tar.bz2',
      },
    ],
  };
}

export const PIPER_VOICES: readonly ModelPackage[] = [
  { voice: 'ar_JO-kareem-medium', language: 'ar', languageName: 'Arabic' },
  { voice: 'cs_CZ-jirka-medium', language: 'cs', languageName: 'Czech' },
  { voice: 'da_DK-talesyntese-medium', language: 'da', languageName: 'Danish' },
  { voice: 'el_GR-rapunzelina-low', language: 'el', languageName: 'Greek' },
  { voice: 'fi_FI-harri-medium', language: 'fi', languageName: 'Finnish' },
  { voice: 'hu_HU-anna-medium', language: 'hu', languageName: 'Hungarian' },
  { voice: 'id_ID-news_tts-medium', language: 'id', languageName: 'Indonesian' },
  { voice: 'lv_LV-aivars-medium', language: 'lv', languageName: 'Latvian' },
  { voice: 'nl_BE-nathalie-medium', language: 'nl', languageName: 'Dutch (Flemish)' },
  { voice: 'pl_PL-gosia-medium', language: 'pl', languageName: 'Polish' },
  { voice: 'ro_RO-mihai-medium', language: 'ro', languageName: 'Romanian' },
  { voice: 'ru_RU-irina-medium', language: 'ru', languageName: 'Russian' },
  { voice: 'sk_SK-lili-medium', language: 'sk', languageName: 'Slovak' },
  { voice: 'sl_SI-artur-medium', language: 'sl', languageName: 'Slovenian' },
  { voice: 'sv_SE-nst-medium', language: 'sv', languageName: 'Swedish' },
  { voice: 'tr_TR-dfki-medium', language: 'tr', languageName: 'Turkish' },
  { voice: 'uk_UA-ukrainian_tts-medium', language: 'uk', languageName: 'Ukrainian', speakers: 3 },
  { voice: 'vi_VN-vais1000-medium', language: 'vi', languageName: 'Vietnamese' },
].map(piper);

/**
 * Korean, which Piper lacks: sherpa-onnx's export of the Mimic 3 voice ko_KO kss (a VITS voice phonemized with
 * espeak-ng like Piper's — sherpa-onnx's own apps load it with espeak-ng-data only, which it allows just for Piper,
 * Coqui and icefall exports — so the piper layout takes it; one that said otherwise would be refused with the
 * reason). Its model file is ko_KO-kss_low.onnx. Unconfirmed like the others.
 */
export const MIMIC3_KOREAN: ModelPackage = {
  ...piper({ voice: 'ko_KO-kss-low', language: 'ko', languageName: 'Korean' }),
  id: 'mimic3-ko-ko-kss-low',
  name: 'Mimic 3 ko_KO kss (low)',
  description: 'Mimic 3 VITS voice, Korean, one speaker (sherpa-onnx package with espeak-ng data).',
  licence: 'Mimic 3 voice (MycroftAI); trained on the KSS dataset, CC-BY-NC-SA-4.0 (non-commercial)',
  version: 'vits-mimic3-ko_KO-kss_low',
  sampleRate: undefined,
  files: [{ url: `${SHERPA}/tts-models/vits-mimic3-ko_KO-kss_low.tar.bz2`, sha256: null, unconfirmed: UNCONFIRMED, sizeBytes: 30_000_000, path: '', extract: 'tar.bz2' }],
};
