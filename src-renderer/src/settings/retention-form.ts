/**
 * The Settings tab's retention form: text from number inputs → the PUT body, with the same ranges the service checks
 * (src-main/common/limits.ts) so a typo is explained in plain words before anything is sent.
 */
import type { RetentionSettings } from '$common/api-client.js';
import { JOB_HISTORY_DAYS_RANGE, RECORDINGS_HOURS_RANGE } from '$common/limits.js';

export const RECORDINGS_HOURS = RECORDINGS_HOURS_RANGE;
export const HISTORY_DAYS = JOB_HISTORY_DAYS_RANGE;
/** The days shown when "keep forever" is switched off and nothing was set before. Default 90. */
export const SUGGESTED_HISTORY_DAYS = 90;

export interface RetentionDraft {
  recordingsHours: string;
  keepForever: boolean;
  historyDays: string;
}

export type RetentionBody = { recordings_hours: number; job_history_days: number | null };

export function draftFrom(settings: RetentionSettings): RetentionDraft {
  return {
    recordingsHours: String(settings.recordings_hours),
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
  const hours = whole(draft.recordingsHours, RECORDINGS_HOURS);
  if (hours === null) return { error: `Keep recordings for a whole number of hours between ${RECORDINGS_HOURS.min} and ${RECORDINGS_HOURS.max} (one year).` };
  if (draft.keepForever) return { body: { recordings_hours: hours, job_history_days: null } };
  const days = whole(draft.historyDays, HISTORY_DAYS);
  if (days === null) return { error: `Keep the job history for a whole number of days between ${HISTORY_DAYS.min} and ${HISTORY_DAYS.max} (ten years), or keep it forever.` };
  return { body: { recordings_hours: hours, job_history_days: days } };
}

/** "24 hours", "1 day", "3 days": the saved policy in words. */
export function describeRetention(settings: RetentionSettings): string {
  const unit = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;
  const history = settings.job_history_days === null ? 'kept forever' : `deleted ${unit(settings.job_history_days, 'day')} after they finish`;
  return `Recordings are deleted ${unit(settings.recordings_hours, 'hour')} after their job ends; finished jobs are ${history}.`;
}
