/**
 * The user's retention policy, stored in the settings table under `retention` and read by every maintenance sweep
 * (a change applies without a restart). Artifact links are not part of it: the spec fixes them at one day.
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { ApiError } from '../../common/errors.js';
import { JOB_HISTORY_DAYS_RANGE, RECORDINGS_HOURS_RANGE } from '../../common/limits.js';
import type { AsyncSettingsRepo } from '../../store/store.js';
import type { RetentionPolicy, RetentionSettings } from '../../common/settings-types.js';

export const RETENTION_SETTING_KEY = 'retention';
export const ARTIFACT_LINK_HOURS = 24;
export const DEFAULT_RETENTION: RetentionPolicy = { recordings_hours: null, job_history_days: null };

const FIELDS = ['recordings_hours', 'job_history_days'] as const;

function inRange(value: unknown, range: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max;
}

/** The stored policy; `undefined` fields when nothing (or something unreadable) is stored, so callers pick a fallback. */
export async function storedRetention(settings: AsyncSettingsRepo): Promise<Partial<RetentionPolicy>> {
  let stored: unknown;
  try {
    stored = await settings.get<unknown>(RETENTION_SETTING_KEY);
  } catch {
    return {}; // a hand-edited, unparsable value must not stop the sweep: defaults apply
  }
  if (stored === null || typeof stored !== 'object') return {};
  const record = stored as Record<string, unknown>;
  const policy: Partial<RetentionPolicy> = {};
  if (record.recordings_hours === null || inRange(record.recordings_hours, RECORDINGS_HOURS_RANGE)) policy.recordings_hours = record.recordings_hours;
  if (record.job_history_days === null || inRange(record.job_history_days, JOB_HISTORY_DAYS_RANGE)) {
    policy.job_history_days = record.job_history_days;
  }
  return policy;
}

/** The effective policy: stored values, else the defaults. */
export async function readRetention(settings: AsyncSettingsRepo): Promise<RetentionPolicy> {
  return { ...DEFAULT_RETENTION, ...(await storedRetention(settings)) };
}

export function retentionSettings(policy: RetentionPolicy, recordingsBytes: number): RetentionSettings {
  return { ...policy, artifact_link_hours: ARTIFACT_LINK_HOURS, recordings_bytes: recordingsBytes };
}

/**
 * Validates a PUT body (partial: an omitted field keeps its current value) and returns the merged policy.
 * Unknown fields → unsupported_param; wrong types or out-of-range values → invalid_params, each naming the field.
 */
export function mergeRetentionUpdate(current: RetentionPolicy, body: Record<string, unknown>): RetentionPolicy {
  refuseUnknownFields(body, FIELDS, '', `retention (artifact links always last ${ARTIFACT_LINK_HOURS} hours)`);
  if (!FIELDS.some((field) => field in body)) {
    throw new ApiError('invalid_params', 'give recordings_hours and/or job_history_days');
  }
  const next: RetentionPolicy = { ...current };
  if ('recordings_hours' in body) {
    const value = body.recordings_hours;
    if (value !== null && !inRange(value, RECORDINGS_HOURS_RANGE)) {
      throw new ApiError('invalid_params', `recordings_hours must be null (as long as the job) or a whole number of hours from ${RECORDINGS_HOURS_RANGE.min} to ${RECORDINGS_HOURS_RANGE.max} (one year), got ${JSON.stringify(value)}`);
    }
    next.recordings_hours = value;
  }
  if ('job_history_days' in body) {
    const value = body.job_history_days;
    if (value !== null && !inRange(value, JOB_HISTORY_DAYS_RANGE)) {
      throw new ApiError('invalid_params', `job_history_days must be null (keep forever) or a whole number of days from ${JOB_HISTORY_DAYS_RANGE.min} to ${JOB_HISTORY_DAYS_RANGE.max}, got ${JSON.stringify(value)}`);
    }
    next.job_history_days = value;
  }
  return next;
}

export async function saveRetention(settings: AsyncSettingsRepo, policy: RetentionPolicy): Promise<void> {
  await settings.set(RETENTION_SETTING_KEY, { recordings_hours: policy.recordings_hours, job_history_days: policy.job_history_days });
}
