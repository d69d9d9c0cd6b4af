/**
 * GET /v1/speech-to-text/{id}/audio (extension, docs/transcripts.md): the recording a transcription was made from,
 * so a transcript opened later (after a relaunch, from library search) can be played and seeked. Same key and
 * ownership as the job routes: unknown, another account's, or another product's job → 404 not_found. The file is
 * streamed with its sniffed type and single byte ranges (206 / 416, service/http/file-response.ts); deleted by
 * retention → 410 recording_deleted; a job with no recording on this device (a hosted dictation not settled yet)
 * → 404 not_found saying so.
 *
 * Browsers' `<audio>` cannot send an Authorization header, so this one route (like the live WebSockets) also takes
 * the key as `?api_key=` (http/route-access.ts, keyOrQueryRoute). Answers are `Cache-Control: private, no-store` and
 * `Referrer-Policy: no-referrer`, so a URL holding a key is neither cached nor passed on.
 */
import { Hono } from 'hono';
import { ApiError } from '../../common/errors.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { keyOrQueryRoute } from '../http/route-access.js';
import { contentDisposition, fileResponse } from '../http/file-response.js';
import { noJobOnRoute } from '../../common/error-messages.js';

export function recordingRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/v1/speech-to-text/:jobId/audio', keyOrQueryRoute, async (c) => {
    const id = c.req.param('jobId');
    const recording = await deps.jobs.getRecording(c.get('owner').accountId, id);
    if (!recording) throw new ApiError('not_found', noJobOnRoute(id));
    if (recording.kind === 'gone') throw new ApiError('recording_deleted', recording.message);
    if (recording.kind === 'none') throw new ApiError('not_found', recording.message);
    const headers = {
      'Content-Disposition': contentDisposition(recording.fileName, 'inline'),
      'Cache-Control': 'private, no-store',
      'Referrer-Policy': 'no-referrer',
    };
    return fileResponse({ path: recording.path, size: recording.size, contentType: recording.contentType, headers }, c.req.header('range'));
  });
  return app;
}
