/**
 * The languages of an installed voice, for the catalogue's `languages` when its package does not list them (an
 * imported folder; issue 32, point 3):
 * - a Piper voice's `<model>.onnx.json`: `language.code` ("en_US" → "en-us"), else its espeak-ng `voice`;
 * - a Kokoro model's voice names (`af_bella`: the first letter is the language of Kokoro's voice packs);
 * - the ONNX metadata's `language` (sherpa-onnx's VITS, Kokoro and Matcha exports name it: "English" → "en").
 * What none of them says stays unknown ([]). Files are read once per path (an installed package does not change).
 */
import { existsSync, readFileSync } from 'node:fs';
import { languageCode } from '../../common/openai-transcript.js';
import { onnxMetadataOrEmpty } from '../onnx-metadata.js';

/** Kokoro's voice-pack prefixes (a: American English, b: British English, e: Spanish, …). */
const KOKORO_PREFIXES: Record<string, string> = { a: 'en', b: 'en', e: 'es', f: 'fr', h: 'hi', i: 'it', j: 'ja', p: 'pt', z: 'zh' };

const known = new Map<string, string[]>();

function fromPiperConfig(modelPath: string): string[] {
  const path = `${modelPath}.json`;
  if (!existsSync(path)) return [];
  try {
    const config = JSON.parse(readFileSync(path, 'utf8')) as { language?: { code?: unknown }; espeak?: { voice?: unknown } };
    const code = typeof config.language?.code === 'string' ? config.language.code : typeof config.espeak?.voice === 'string' ? config.espeak.voice : '';
    return code ? [code.toLowerCase().replaceAll('_', '-')] : [];
  } catch {
    return [];
  }
}

function fromMetadata(modelPath: string): string[] {
  const meta = onnxMetadataOrEmpty(modelPath);
  const names = (meta.speaker_names ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  const byVoice = [...new Set(names.map((n) => KOKORO_PREFIXES[n[0]!.toLowerCase()]).filter((c): c is string => c !== undefined))];
  if (meta.model_type === 'kokoro' && byVoice.length > 0) return byVoice;
  const named = (meta.language ?? '').split(/[,/]/).map((n) => languageCode(n)).filter((c): c is string => c !== null);
  return [...new Set(named)];
}

/** The voice's languages: the package's own list when it has one, else what the model's files say. */
export function voiceLanguages(modelPath: string | undefined, listed: readonly string[]): string[] {
  if (listed.length > 0) return [...listed];
  if (!modelPath) return [];
  const hit = known.get(modelPath);
  if (hit) return hit;
  const found = fromPiperConfig(modelPath);
  const languages = found.length > 0 ? found : fromMetadata(modelPath);
  if (existsSync(modelPath)) known.set(modelPath, languages);
  return languages;
}
