/** Where the curated packages are published. */

/** sherpa-onnx's GitHub releases (asr-models, tts-models, speech-enhancement-models, punctuation-models …). */
export const SHERPA = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';
