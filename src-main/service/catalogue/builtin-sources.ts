/**
 * The on-device model sources wired into every service, in precedence order (first wins on an id collision).
 * Each engine area exports its factory; adding an engine means adding one line here.
 */
import { denoiseModelSource } from '../../engines/denoise/rnnoise-models.js';
import type { ModelSourceFactory } from '../../engines/model-sources.js';
import { espeakModelSource } from '../../engines/tts/espeak-models.js';

export const BUILTIN_MODEL_SOURCES: readonly ModelSourceFactory[] = [espeakModelSource, denoiseModelSource];
