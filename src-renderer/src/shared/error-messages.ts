/**
 * Error and waiting codes (docs/design.md §3, common/errors.ts) in plain words for people, in the interface's
 * language: each code has a sentence under `errors.` in every locale, so what the service says in English (its
 * `message`) is shown in the person's language. A code this version does not know shows the service's own sentence.
 */
import { MAX_BATCH_ITEMS } from '$common/limits.js';
import { hasMessage, language, t } from './i18n/i18n.svelte.js';

/** A sentence for a code; the service's own message is used for codes this table does not know. */
export function describeError(code: string | null | undefined, fallback?: string | null): string {
  const key = `errors.${code ?? ''}`;
  if (code && hasMessage(key)) return t(key, { max: MAX_BATCH_ITEMS });
  if (fallback) return fallback;
  return code ? t('errorsUnknown.code', { code: code.replace(/_/g, ' ') }) : t('errorsUnknown.none');
}

export function isWaitingCode(code: string | null | undefined): boolean {
  return !!code && code.startsWith('waiting_for_');
}

/**
 * A failure the page itself meets (the microphone refused, a live session that would not open): its code has a
 * sentence under `errors.` like the service's codes; `detail` is what the browser or the service said, if anything.
 */
export class PageError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string | null = null,
  ) {
    super(detail ?? code);
    this.name = 'PageError';
  }
}

/** The code and message of anything thrown by the API client (ApiClientError carries `code`) or by the browser. */
export function errorParts(err: unknown): { code: string | null; message: string } {
  const e = err as { code?: unknown; message?: unknown } | null;
  return { code: typeof e?.code === 'string' ? e.code : null, message: typeof e?.message === 'string' ? e.message : String(err) };
}

/** The sentence for anything thrown by the API client or by the browser (a PageError with its detail after it). */
export function errorText(err: unknown): string {
  if (err instanceof PageError) return err.detail ? `${describeError(err.code)} (${err.detail})` : describeError(err.code);
  const { code, message } = errorParts(err);
  return describeError(code, message);
}

/** Codes whose service sentence carries what the code's own cannot: the field at fault, the amounts of the cap. */
const DETAILED = ['invalid_params', 'unsupported_param', 'invalid_request', 'waiting_for_budget', 'budget_exceeded'];

/**
 * For a code whose service sentence names the field at fault or the amounts involved: in English that sentence
 * itself; in another language the code's sentence (with the service's words after it for a refused field, which
 * names it). Other codes get their sentence as describeError gives it.
 */
export function detailText(code: string | null | undefined, message: string | null | undefined): string {
  if (!code || !message || !DETAILED.includes(code)) return describeError(code, message);
  if (language() === 'en') return message;
  return code.startsWith('waiting_for_') || code === 'budget_exceeded' ? describeError(code) : `${describeError(code)} (${message})`;
}

/** detailText of anything thrown by the API client. */
export function errorDetail(err: unknown): string {
  const { code, message } = errorParts(err);
  return detailText(code, message);
}
