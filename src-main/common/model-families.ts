/**
 * The model families the on-device model manager knows (sherpa-onnx folder layouts), with names for people. Here in
 * common so that the renderer's "Add from URL" form offers exactly the families the service accepts.
 */

/** `streaming-transducer`: sherpa-onnx online (streaming) transducers such as streaming Zipformer, for live dictation. */
export const ASR_FAMILIES = ['whisper', 'nemo-ctc', 'nemo-transducer', 'streaming-transducer', 'moonshine', 'sense-voice', 'canary'] as const;
/** `matcha`: an acoustic model and a vocoder (two files); `kitten`: Kitten TTS (Kokoro-like voices.bin, English). */
export const TTS_FAMILIES = ['vits', 'piper', 'kokoro', 'matcha', 'kitten'] as const;
/** `language-id`: a multilingual Whisper used by sherpa-onnx's SpokenLanguageIdentification for recognizers told a language. */
export const SUPPORT_KINDS = ['silero-vad', 'speaker-embedding', 'pyannote-segmentation', 'punctuation', 'language-id'] as const;
/** Speech denoisers run by sherpa-onnx's streaming OnlineSpeechDenoiser. */
export const DENOISE_FAMILIES = ['gtcrn', 'dpdfnet'] as const;
/** Stem separation through sherpa-onnx's C library: Spleeter 2 stems, UVR MDX-Net. */
export const SEPARATION_FAMILIES = ['spleeter', 'uvr'] as const;
/** Zero-shot voices (voice-cloning, voice-continuation): ZipVoice and Kyutai's Pocket TTS through sherpa-onnx-node. */
export const CLONING_FAMILIES = ['zipvoice', 'pocket'] as const;

export type AsrFamily = (typeof ASR_FAMILIES)[number];
export type TtsFamily = (typeof TTS_FAMILIES)[number];
export type SupportKind = (typeof SUPPORT_KINDS)[number];
export type ModelFamily = AsrFamily | TtsFamily | SupportKind | (typeof DENOISE_FAMILIES)[number] | (typeof SEPARATION_FAMILIES)[number] | (typeof CLONING_FAMILIES)[number];

export const MODEL_FAMILIES: readonly ModelFamily[] = [...ASR_FAMILIES, ...TTS_FAMILIES, ...DENOISE_FAMILIES, ...SEPARATION_FAMILIES, ...CLONING_FAMILIES, ...SUPPORT_KINDS];

export const MODEL_FAMILY_LABELS: Record<ModelFamily, string> = {
  whisper: 'Whisper',
  'nemo-ctc': 'NeMo CTC',
  'nemo-transducer': 'NeMo transducer (Parakeet)',
  'streaming-transducer': 'Streaming transducer (Zipformer)',
  moonshine: 'Moonshine',
  'sense-voice': 'SenseVoice',
  canary: 'NeMo Canary',
  vits: 'VITS voice (lexicon)',
  piper: 'Piper voice',
  kokoro: 'Kokoro voice',
  matcha: 'Matcha voice (acoustic model + vocoder)',
  kitten: 'Kitten voice',
  gtcrn: 'GTCRN denoiser',
  dpdfnet: 'DPDFNet denoiser',
  spleeter: 'Spleeter stem separation (2 stems)',
  uvr: 'UVR MDX-Net stem separation',
  zipvoice: 'ZipVoice zero-shot voice (cloning, continuation)',
  pocket: 'Pocket TTS zero-shot voice (cloning, continuation)',
  'silero-vad': 'Silero VAD',
  'speaker-embedding': 'Speaker embedding',
  'pyannote-segmentation': 'pyannote segmentation',
  punctuation: 'Punctuation (CT-Transformer)',
  'language-id': 'Spoken-language identification (Whisper)',
};

export function isModelFamily(value: string): value is ModelFamily {
  return (MODEL_FAMILIES as readonly string[]).includes(value);
}
