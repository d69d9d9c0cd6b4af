/**
 * Server-Sent Events as OpenAI's streaming endpoints send them: one `data: <json>` line per event and a blank line,
 * no `event:` names. A failure after the stream started cannot change the status any more: it is sent as one
 * `data: {"error": {...}}` event (OpenAI's SDKs raise it as an APIError) and the stream ends.
 */
import { ApiError } from '../../common/errors.js';
import { openAiErrorBody } from './openai-error.js';
import type { Log } from '../../common/log.js';
import { UNEXPECTED_ERROR } from '../../common/error-messages.js';

export type SendEvent = (event: unknown) => void;

export function eventStreamResponse(
  headers: Record<string, string>,
  run: (send: SendEvent, signal: AbortSignal) => Promise<void>,
  log: Log,
): Response {
  const gone = new AbortController();
  const encoder = new TextEncoder();
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send: SendEvent = (event) => {
        if (open) controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
      };
      void run(send, gone.signal)
        .catch((error: unknown) => {
          const apiError = error instanceof ApiError ? error : new ApiError('internal_error', UNEXPECTED_ERROR);
          if (!(error instanceof ApiError)) log.info(`event stream failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          send(openAiErrorBody(apiError));
        })
        .finally(() => {
          if (!open) return;
          open = false;
          controller.close();
        });
    },
    cancel() {
      open = false;
      gone.abort();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', ...headers },
  });
}
