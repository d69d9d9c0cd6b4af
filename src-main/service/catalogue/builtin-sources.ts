/**
 * The on-device model sources that need nothing but the data dir, in precedence order (first wins on an id
 * collision). The model manager's and the hosted service's sources need running objects and are added by
 * createService after these; the rows explaining unserved products come last.
 */
import { pocketsphinxModelSource } from '../../engines/asr/pocketsphinx-models.js';
import { denoiseModelSource } from '../../engines/denoise/rnnoise-models.js';
import type { ModelSourceFactory } from '../../engines/model-sources.js';
import { unavailableProductsSource } from '../../engines/products/unavailable-products.js';
import { espeakModelSource } from '../../engines/tts/espeak-models.js';

export const BUILTIN_MODEL_SOURCES: readonly ModelSourceFactory[] = [espeakModelSource, pocketsphinxModelSource, denoiseModelSource];

/** Listed after every real source: a product's explanatory row never shadows a model that serves it. */
export const FALLBACK_MODEL_SOURCES: readonly ModelSourceFactory[] = [unavailableProductsSource];
