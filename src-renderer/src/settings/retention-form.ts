/**
 * The Settings tab's retention form: text from number inputs → the PUT body, with the same ranges the service checks
 * (src-main/common/limits.ts) so a typo is explained in plain words before anything is sent. Recordings are kept as
 * long as their job unless the person chooses a number of hours.
 */
import type { RetentionSettings } from '$common/settings-types.js';
import { JOB_HISTORY_DAYS_RANGE, RECORDINGS_HOURS_RANGE } from '$common/limits.js';
import { t } from '../shared/i18n/i18n.svelte.js';

export const RECORDINGS_HOURS = RECORDINGS_HOURS_RANGE;
export const HISTORY_DAYS = JOB_HISTORY_DAYS_RANGE;
/** The hours shown when "as long as the transcript" is switched off and nothing was set before. Default 24. */
export const SUGGESTED_RECORDINGS_HOURS = 24;
/** The days shown when "keep forever" is switched off and nothing was set before. Default 90. */
export const SUGGESTED_HISTORY_DAYS = 90;

export interface RetentionDraft {
  /** Keep each recording as long as its job (the default). */
  keepRecordings: boolean;
  recordingsHours: string;
  keepForever: boolean;
  historyDays: string;
}

export type RetentionBody = { recordings_hours: number | null; job_history_days: number | null };

export function draftFrom(settings: RetentionSettings): RetentionDraft {
  return {
    keepRecordings: settings.recordings_hours === null,
    recordingsHours: String(settings.recordings_hours ?? SUGGESTED_RECORDINGS_HOURS),
    keepForever: settings.job_history_days === null,
    historyDays: String(settings.job_history_days ?? SUGGESTED_HISTORY_DAYS),
  };
}

function whole(text: string, range: { min: number; max: number }): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= range.min && value <= range.max ? value : null;
}

/** The body to send, or a sentence saying what to fix. */
export function bodyFrom(draft: RetentionDraft): { body: RetentionBody } | { error: string } {
  const hours = draft.keepRecordings ? null : whole(draft.recordingsHours, RECORDINGS_HOURS);
  if (!draft.keepRecordings && hours === null) return { error: t('retention.hoursInvalid', { min: RECORDINGS_HOURS.min, max: RECORDINGS_HOURS.max }) };
  if (draft.keepForever) return { body: { recordings_hours: hours, job_history_days: null } };
  const days = whole(draft.historyDays, HISTORY_DAYS);
  if (days === null) return { error: t('retention.daysInvalid', { min: HISTORY_DAYS.min, max: HISTORY_DAYS.max }) };
  return { body: { recordings_hours: hours, job_history_days: days } };
}

/** The saved policy in words. */
export function describeRetention(settings: RetentionSettings): string {
  const recordings = settings.recordings_hours === null ? t('retention.summary.recordingsKept') : t('retention.summary.recordingsHours', { hours: settings.recordings_hours });
  const history = settings.job_history_days === null ? t('retention.summary.historyForever') : t('retention.summary.historyDays', { days: settings.job_history_days });
  return `${recordings} ${history}`;
}
