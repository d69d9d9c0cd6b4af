/** Error and waiting codes (docs/design.md §3, common/errors.ts) in plain words for people, not programs. */
import { MAX_BATCH_ITEMS } from '$common/limits.js';

const SENTENCES: Record<string, string> = {
  unauthorized: 'The service did not accept the key. Restart the app, or check the key in Settings.',
  forbidden_origin: 'The service refused this page’s origin.',
  not_found: 'This item no longer exists on the service.',
  artifact_expired: 'The audio was kept for one day and has been deleted. Run the job again to get it back.',
  recording_deleted: 'The recording was deleted after its retention time. The transcript is still here.',
  model_required: 'Choose a model first.',
  invalid_params: 'One of the options is not valid for this model.',
  unsupported_param: 'This model does not accept one of the options.',
  file_required: 'Add an audio file first.',
  text_required: 'Type some text first.',
  text_too_long: 'The text is longer than this model accepts. Split it into shorter parts.',
  too_many_items: `A batch holds at most ${MAX_BATCH_ITEMS} items.`,
  invalid_request: 'The service did not understand the request.',
  invalid_json: 'The service did not understand the request.',
  idempotency_key_reused: 'This request was already sent with different content.',
  conflict: 'The item changed meanwhile; try again.',
  file_too_large: 'The file is larger than this model accepts.',
  unsupported_media_type: 'This kind of file cannot be sent here.',
  unsupported_audio: 'The file does not contain audio this model can read.',
  model_unavailable: 'The model is not installed or cannot run right now. Download it on the Models tab.',
  audio_too_long: 'The recording is longer than this model accepts.',
  too_many_open_batches: 'Two batches are already running. The next one starts when one of them finishes.',
  rate_limited: 'Too many wrong keys came from this computer. Wait a minute, then try again.',
  too_many_uploads: 'Several uploads are already running. Try again when one of them has finished.',
  budget_exceeded: 'The monthly cap for hosted work leaves too little for this. Raise the cap on the Usage page, or use an on-device model.',
  upload_quota_exceeded: 'Your uploaded recordings fill the space this service gives you. Wait until finished jobs’ recordings are deleted, or ask for more space.',
  request_timeout: 'The upload stopped sending data and was cut off. Check the connection and send it again.',
  internal_error: 'Something went wrong inside the service. The details are in its log.',
  upstream_unavailable: 'The hosted service cannot be reached right now.',
  audio_decode_failed: 'The file could not be decoded as audio. It may be damaged or in an unusual format.',
  engine_failed: 'The speech engine could not process this item.',
  engine_crashed: 'The speech engine stopped unexpectedly while working on this item. Retry it.',
  engine_timeout: 'The speech engine took too long and was stopped.',
  cancelled: 'Cancelled.',
  expired: 'The job waited too long and expired.',
  interrupted: 'The app closed while this item was running.',
  paused: 'Paused. Resume it to continue where it stopped; nothing transcribed so far is lost.',
  remote_failed: 'The hosted service could not finish this item.',
  remote_rejected: 'The hosted service refused this item.',
  waiting_for_capacity: 'Waiting for a free worker.',
  waiting_for_network: 'Offline — waiting for the hosted service.',
  waiting_for_model: 'Waiting for the model download to finish.',
  waiting_for_budget: 'Waiting for the monthly budget for hosted work. Raise the cap on the Usage page, or it starts when the next month begins.',
  network_error: 'The Voxdesk service cannot be reached. Is it still running?',
  unknown_message_type: 'The live session did not understand a message.',
  audio_overrun: 'The speech engine cannot keep up with the microphone; some audio was skipped.',
  frame_too_large: 'A piece of audio was too large for the live session and was skipped.',
  invalid_audio_frame: 'A piece of audio was damaged and was skipped.',
  session_ended: 'The dictation has already ended.',
};

/** A sentence for a code; the service's own message is used for codes this table does not know. */
export function describeError(code: string | null | undefined, fallback?: string | null): string {
  if (code && SENTENCES[code]) return SENTENCES[code];
  if (fallback) return fallback;
  return code ? `Failed (${code.replace(/_/g, ' ')}).` : 'Failed for an unknown reason.';
}

export function isWaitingCode(code: string | null | undefined): boolean {
  return !!code && code.startsWith('waiting_for_');
}

/** The sentence for anything thrown by the API client (ApiClientError carries `code`) or by the browser. */
export function errorText(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return describeError(code, message);
}
