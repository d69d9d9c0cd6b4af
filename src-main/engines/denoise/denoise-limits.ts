/** Limits of the on-device denoisers (catalogue `limits`). */
import type { ModelLimits } from '../../common/api-types.js';

/**
 * Files under 500 MiB (the spec's upload bound) and up to 2 hours of audio: both denoisers stream, so length costs
 * time (RNNoise ~0.05, GTCRN ~0.1 real-time factor here) but not memory.
 */
export const DENOISE_LIMITS: ModelLimits = { max_file_bytes: 500 * 1024 * 1024, max_audio_seconds: 2 * 60 * 60, max_text_chars: null };
