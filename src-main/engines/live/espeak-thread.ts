/**
 * A worker thread running eSpeak NG (compiled to JavaScript). Synthesis is synchronous: running it here keeps the
 * service's event loop free. A shared cell holds the id of a cancelled request; the chunk callback checks it and
 * stops early.
 * The voice is set again only when a sentence's settings differ from the last one's: loading a voice costs 1–2 ms
 * (up to ~50 ms on a busy machine) before the first sample, and a live session speaks sentence after sentence with
 * the same settings.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EspeakSynth, type EspeakVoiceSettings } from '../tts/espeak-synth.js';
import { jobFailureOf, type JobErrorCode } from '../../common/errors.js';

export type ThreadRequest = { type: 'speak'; id: number; text: string; settings: EspeakVoiceSettings };
export type ThreadReply =
  | { type: 'ready' }
  | { type: 'chunk'; id: number; samples: Int16Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; code: JobErrorCode; message: string };

const port = parentPort!;
const cancelCell = new Int32Array((workerData as { cancel: SharedArrayBuffer }).cancel);
const synth = await EspeakSynth.create();
/** The settings the synth is configured with (JSON), or null when unknown (none yet, or the last configure failed). */
let configured: string | null = null;
port.postMessage({ type: 'ready' } satisfies ThreadReply);

port.on('message', (request: ThreadRequest) => {
  const { id } = request;
  try {
    const settings = JSON.stringify(request.settings);
    if (settings !== configured) {
      configured = null;
      synth.configure(request.settings);
      configured = settings;
    }
    synth.synthesize(request.text, (chunk) => {
      if (Atomics.load(cancelCell, 0) === id) return true;
      if (chunk.length > 0) {
        const copy = chunk.slice();
        port.postMessage({ type: 'chunk', id, samples: copy } satisfies ThreadReply, [copy.buffer]);
      }
      return false;
    });
    port.postMessage({ type: 'done', id } satisfies ThreadReply);
  } catch (error) {
    port.postMessage({ type: 'error', id, ...jobFailureOf(error) } satisfies ThreadReply);
  }
});
