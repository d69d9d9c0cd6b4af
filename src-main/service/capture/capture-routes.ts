/**
 * The capture routes (docs/capture.md), the local account's alone (app.ts applies auth/local-account-only.ts to
 * everything under /v1/captures: other accounts get 404, as for an unknown route):
 *   GET  /v1/captures/sources     the devices this machine can record, or why none
 *   POST /v1/captures             {model, language?, microphone?, system?} → 201 the capture (recording)
 *   GET  /v1/captures             the running capture and the last ended ones
 *   GET  /v1/captures/{id}
 *   POST /v1/captures/{id}/stop   → 200 the capture, done, with its job_id (waits for the last finals)
 * The live transcript is the socket `GET /v1/captures/{id}/realtime` (capture-socket.ts).
 */
import { refuseUnknownFields } from '../../common/unknown-fields.js';
import { Hono } from 'hono';
import type { CaptureRequest } from '../../common/capture-protocol.js';
import { ApiError } from '../../common/errors.js';
import type { AppEnv } from '../app-env.js';
import { readJsonObject } from '../http/json-body.js';
import type { CaptureService } from './capture-service.js';

const REQUEST_FIELDS = ['model', 'language', 'microphone', 'system'] as const;

/** The request body, checked: unknown fields and wrong types are refused with the field named. */
export function parseCaptureRequest(body: Record<string, unknown>): CaptureRequest {
  refuseUnknownFields(body, REQUEST_FIELDS);
  if (body.model === undefined || body.model === null || body.model === '') throw new ApiError('model_required', 'model is required: a live speech-to-text model (GET /v1/models shows live: true)');
  if (typeof body.model !== 'string') throw new ApiError('invalid_params', 'model must be a string');
  const request: CaptureRequest = { model: body.model };
  for (const field of ['language', 'microphone', 'system'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') throw new ApiError('invalid_params', `${field} must be a non-empty string${field === 'language' ? '' : ' (a device id of GET /v1/captures/sources, "default" or "client")'}`);
    request[field] = value;
  }
  return request;
}

export function captureRoutes(captures: CaptureService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/v1/captures/sources', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await captures.sources());
  });

  app.post('/v1/captures', async (c) => {
    const request = parseCaptureRequest(await readJsonObject(c));
    return c.json(await captures.start(c.get('owner').accountId, request), 201);
  });

  app.get('/v1/captures', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ object: 'list', data: captures.list(c.get('owner').accountId) });
  });

  app.get('/v1/captures/:id', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(captures.session(c.get('owner').accountId, c.req.param('id')).view());
  });

  app.post('/v1/captures/:id/stop', async (c) => c.json(await captures.stop(c.get('owner').accountId, c.req.param('id'))));

  return app;
}
