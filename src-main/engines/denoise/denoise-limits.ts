/** Limits of the on-device denoisers (catalogue `limits`). */
import type { ModelLimits } from '../../common/api-types.js';
import { MAX_FILE_BYTES } from '../../common/limits.js';

/**
 * Files under 500 MB (the spec's upload bound, common/limits.ts) and up to 2 hours of audio: both denoisers stream, so length costs
 * time (RNNoise ~0.05, GTCRN ~0.1 real-time factor here) but not memory.
 */
export const DENOISE_LIMITS: ModelLimits = { max_file_bytes: MAX_FILE_BYTES, max_audio_seconds: 2 * 60 * 60, max_text_chars: null };
