/**
 * What the welcome screen offers, from the service: GET /v1/local/welcome?language=TAG answers whether the data dir is
 * new, the recognizer recommended for the language (with its size, licence and a reason code the screen words in the
 * person's language) and the low-accuracy fallback that needs no download (docs/api-conventions.md, "First start").
 * The recommendation is the service's alone (service/first-start/recommend-recognizer.ts), so the page never
 * recommends otherwise than a script asking the same route.
 */
import type { ApiClient } from '$common/api-client.js';
import type { RecommendationReason } from '$common/api-types.js';

export interface OfferedRecognizer {
  id: string;
  name: string;
  sizeBytes: number;
  licence: string;
  reason: RecommendationReason;
}

export interface WelcomeOffer {
  newDataDir: boolean;
  recommended: OfferedRecognizer | null;
  /** The recognizer that works with nothing downloaded (PocketSphinx), when the system has it. */
  fallback: { id: string; name: string } | null;
}

export async function loadWelcomeOffer(api: ApiClient, language: string): Promise<WelcomeOffer> {
  const answer = await api.welcome(language);
  const r = answer.recommended;
  return {
    newDataDir: answer.new_data_dir,
    recommended: r ? { id: r.id, name: r.name, sizeBytes: r.size_bytes, licence: r.licence, reason: r.reason } : null,
    fallback: answer.fallback?.available ? { id: answer.fallback.id, name: answer.fallback.name } : null,
  };
}
