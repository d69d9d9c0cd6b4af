/** Products of the spec (`/v1/{product}`) and catalogue capabilities. Pure data, shared with the renderer. */

export const PRODUCTS = [
  'speech-to-text',
  'text-to-speech',
  'voice-cloning',
  'voice-design',
  'voice-conversion',
  'voice-continuation',
  'stem-separation',
  'voice-isolator',
  'audio-enhancement',
] as const;
export type Product = (typeof PRODUCTS)[number];

/** Every product has a batch route except voice-continuation (spec: "Voice continuation has no batch route"). */
export const BATCH_PRODUCTS: readonly Product[] = PRODUCTS.filter((p) => p !== 'voice-continuation');

export const CAPABILITIES = [
  'asr',
  'tts',
  'voice_cloning',
  'voice_design',
  'voice_conversion',
  'voice_continuation',
  'stem_separation',
  'noise_reduction',
  'speech_restoration',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Which catalogue capabilities may serve a product route. A zero-shot voice (capability voice_cloning: ZipVoice, Pocket
 * TTS) also continues and re-voices a recording, so voice_cloning rows may serve voice-continuation and
 * voice-conversion (a Voxdesk host's rows do).
 */
export const PRODUCT_CAPABILITIES: Record<Product, readonly Capability[]> = {
  'speech-to-text': ['asr'],
  'text-to-speech': ['tts'],
  'voice-cloning': ['voice_cloning'],
  'voice-design': ['voice_design'],
  'voice-conversion': ['voice_conversion', 'voice_cloning'],
  'voice-continuation': ['voice_continuation', 'voice_cloning'],
  'stem-separation': ['stem_separation'],
  'voice-isolator': ['noise_reduction'],
  'audio-enhancement': ['speech_restoration', 'noise_reduction'],
};

/** How a product's POST body arrives: JSON text in, or multipart with an audio file. */
export type ProductInputKind = 'text' | 'audio' | 'audio+text' | 'description';
export const PRODUCT_INPUT: Record<Product, ProductInputKind> = {
  'speech-to-text': 'audio',
  'text-to-speech': 'text',
  'voice-cloning': 'audio+text',
  'voice-design': 'description',
  'voice-conversion': 'audio',
  'voice-continuation': 'audio+text',
  'stem-separation': 'audio',
  'voice-isolator': 'audio',
  'audio-enhancement': 'audio',
};

export function isProduct(value: string): value is Product {
  return (PRODUCTS as readonly string[]).includes(value);
}
export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

/**
 * Job kinds of the service's own extensions, beside the spec's products: `transcript-ai`, a language-model action on
 * a transcript (POST /v1/speech-to-text/{id}/ai, docs/ai-actions.md). Its jobs are read, cancelled and retried on
 * `/v1/transcript-ai/{job_id}` like any product's, and listed in Jobs; it has no POST or batch route of its own.
 */
export const TRANSCRIPT_AI = 'transcript-ai' as const;
export type JobProduct = Product | typeof TRANSCRIPT_AI;

export function isJobProduct(value: string): value is JobProduct {
  return value === TRANSCRIPT_AI || isProduct(value);
}
