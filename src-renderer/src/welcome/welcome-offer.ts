/**
 * What the welcome screen offers, from the service: GET /v1/local/welcome?language=TAG answers whether the data dir is
 * new, the recognizer recommended for the language (with its size, licence, a reason code and its download's state)
 * and the low-accuracy fallback (docs/api-conventions.md, "First start"). A service without that route (404: an
 * older `voxdesk serve`, or a hosted instance) gets the same offer worked out here from the catalogue
 * (recommendation.ts), with "new" judged from the job list the page already holds.
 */
import type { ApiClient } from '$common/api-client.js';
import type { CatalogueRecord } from '$common/api-types.js';
import { hasChosenRecognizer, recommendRecognizer, type RecommendationReason } from './recommendation.js';

export interface OfferedRecognizer {
  id: string;
  name: string;
  sizeBytes: number | null;
  licence: string | null;
  reason: RecommendationReason;
}

export interface WelcomeOffer {
  newDataDir: boolean;
  recommended: OfferedRecognizer | null;
  /** The recognizer that works with nothing downloaded (PocketSphinx), when the system has it. */
  fallback: { id: string; name: string } | null;
}

/** The route's answer, as far as the screen reads it (the whole shape: WelcomeInfo of common/api-types.ts). */
interface WelcomeAnswer {
  new_data_dir: boolean;
  recommended: { id: string; name: string; size_bytes: number; licence: string; reason: RecommendationReason } | null;
  fallback: { id: string; name: string; available: boolean } | null;
}

export async function loadWelcomeOffer(api: ApiClient, language: string, models: readonly CatalogueRecord[], jobCount: number): Promise<WelcomeOffer> {
  try {
    const answer = await api.request<WelcomeAnswer>('GET', `/v1/local/welcome?${new URLSearchParams({ language }).toString()}`);
    const r = answer.recommended;
    return {
      newDataDir: answer.new_data_dir,
      recommended: r ? { id: r.id, name: r.name, sizeBytes: r.size_bytes, licence: r.licence, reason: r.reason } : null,
      fallback: answer.fallback?.available ? { id: answer.fallback.id, name: answer.fallback.name } : null,
    };
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
  const pick = recommendRecognizer(models, language);
  const fallback = models.find((m) => m.engine === 'pocketsphinx' && m.status === 'available');
  return {
    newDataDir: jobCount === 0 && !hasChosenRecognizer(models),
    recommended: pick ? { id: pick.model.id, name: pick.model.name, sizeBytes: pick.model.download?.size_bytes ?? null, licence: pick.model.download?.licence ?? null, reason: pick.reason } : null,
    fallback: fallback ? { id: fallback.id, name: fallback.name } : null,
  };
}
