/**
 * A worker thread running eSpeak NG (WASM). Synthesis is synchronous: running it here keeps the service's event
 * loop free. A shared cell holds the id of a cancelled request; the chunk callback checks it and stops early.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EspeakSynth, type EspeakVoiceSettings } from '../tts/espeak-synth.js';

export type ThreadRequest = { type: 'speak'; id: number; text: string; settings: EspeakVoiceSettings };
export type ThreadReply =
  | { type: 'ready' }
  | { type: 'chunk'; id: number; samples: Int16Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; code: string; message: string };

const port = parentPort!;
const cancelCell = new Int32Array((workerData as { cancel: SharedArrayBuffer }).cancel);
const synth = await EspeakSynth.create();
port.postMessage({ type: 'ready' } satisfies ThreadReply);

port.on('message', (request: ThreadRequest) => {
  const { id } = request;
  try {
    synth.configure(request.settings);
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
    const code = (error as { code?: unknown }).code;
    port.postMessage({
      type: 'error',
      id,
      code: typeof code === 'string' ? code : 'engine_failed',
      message: error instanceof Error ? error.message : String(error),
    } satisfies ThreadReply);
  }
});
