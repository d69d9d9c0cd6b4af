/**
 * A child process holding one speech-to-text model warm for live dictation, shared by every session on that model
 * (each session is a numbered stream). Native inference can crash its process; here that ends only this child: the
 * parent (recognizer-pool.ts) tells the affected sessions and starts a new one. Audio arrives as PCM16 at the
 * session's rate, is resampled to 16 kHz and recognised; every audio message is acknowledged (`processed`) so the
 * parent can bound what waits. Each stream's messages are handled in arrival order, and streams take turns, account
 * by account (fair-queue.ts); a stream that is closed loses what it had waiting at once.
 */
import { JobError, jobFailureOf } from '../../common/errors.js';
import { s16leToFloat } from '../audio/pcm.js';
import { createStreamResampler } from '../audio/stream-resampler.js';
import type { BlockProcessor } from '../audio/block-processor.js';
import { PocketsphinxLiveDecoder } from '../asr/pocketsphinx-live-decoder.js';
import { wordsFromTokens } from '../asr/token-words.js';
import { getOnlineRecognizer, getRecognizer } from '../asr/sherpa-recognizers.js';
import { parentLink } from '../worker/parent-link.js';
import { LIVE_SAMPLE_RATE, type LiveModelConfig, type LiveStream, type LiveStreamEvents, type UtteranceDecoder } from './live-recognition-types.js';
import type { RecognizerReply, RecognizerRequest } from './recognizer-protocol.js';
import { StreamingLiveStream } from './streaming-live-stream.js';
import { createLoadGauge, VadLiveStream } from './vad-live-stream.js';
import { FairQueue } from '../../common/fair-queue.js';
import { memoryTrimmer } from '../../platform/free-memory.js';

const parent = parentLink();
const send = (reply: RecognizerReply): void => parent.send(reply);
const gauge = createLoadGauge();
/** Once a minute the C heap's free pages go back to the OS: a meeting-long child otherwise holds 15–30 MB it freed. */
const trimMemory = memoryTrimmer();
setInterval(() => void trimMemory(), 60_000).unref();

let model: LiveModelConfig | null = null;
let pocketsphinx: PocketsphinxLiveDecoder | null = null;

interface Open {
  stream: LiveStream;
  resampler: BlockProcessor;
}
const streams = new Map<number, Open>();

function sherpaDecoder(config: Extract<LiveModelConfig, { kind: 'sherpa-offline' }>['config'], language: string | null): UtteranceDecoder {
  const recognizer = getRecognizer(config, { language: language ?? '', task: 'transcribe', useItn: true });
  return {
    decode(samples) {
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples, sampleRate: LIVE_SAMPLE_RATE });
      recognizer.decode(stream);
      const result = recognizer.getResult(stream);
      const words = wordsFromTokens(
        { tokens: result.tokens ?? [], timestamps: result.timestamps ?? [], durations: result.durations },
        0,
        samples.length / LIVE_SAMPLE_RATE,
      );
      return { text: result.text, ...(words.length > 0 ? { words } : {}) };
    },
  };
}

/** Loads what every stream shares (recognizer, decoder), so the first session does not wait for it. */
function load(config: LiveModelConfig): void {
  model = config;
  if (config.kind === 'sherpa-online') getOnlineRecognizer(config.config);
  else if (config.kind === 'sherpa-offline') getRecognizer(config.config, { language: '', task: 'transcribe', useItn: true });
  else pocketsphinx = new PocketsphinxLiveDecoder(config.install);
}

function createStream(id: number, language: string | null, offsetSeconds: number, firstSegmentId: number): LiveStream {
  if (!model) throw new JobError('engine_failed', 'no model is loaded');
  const events: LiveStreamEvents = {
    partial: (segmentId, text) => send({ type: 'partial', stream: id, segmentId, text }),
    final: (segmentId, utterance) => send({ type: 'final', stream: id, segmentId, utterance }),
  };
  const options = { offsetSeconds, firstSegmentId };
  switch (model.kind) {
    case 'sherpa-online':
      return new StreamingLiveStream(getOnlineRecognizer(model.config), events, options, gauge);
    case 'sherpa-offline':
      return new VadLiveStream(sherpaDecoder(model.config, language), model.vadModel, events, options, gauge);
    case 'pocketsphinx':
      return new VadLiveStream(pocketsphinx!, model.vadModel, events, options, gauge);
  }
}

type StreamRequest = Extract<RecognizerRequest, { type: 'open' | 'audio' | 'end' }>;

/** Work waiting, by account and stream; the stream being worked on; streams closed while it was. */
const queue = new FairQueue<StreamRequest>();
const accounts = new Map<number, string>();
let working: number | null = null;
const closedWhileWorking = new Set<number>();
let pumping = false;

/** Works through the queue one request at a time, yielding between them so new messages (a close) get in. */
async function pump(): Promise<void> {
  if (pumping) return;
  pumping = true;
  try {
    for (let next = queue.shift(); next; next = queue.shift()) {
      working = next.stream;
      await handle(next.item);
      working = null;
      if (closedWhileWorking.delete(next.stream)) dispose(next.stream);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (error) {
    send({ type: 'fatal', ...jobFailureOf(error) });
  } finally {
    pumping = false;
  }
}

function dispose(stream: number): void {
  const open = streams.get(stream);
  streams.delete(stream);
  open?.resampler.release?.();
  open?.stream.dispose();
}

async function handle(request: StreamRequest): Promise<void> {
  switch (request.type) {
    case 'open':
      try {
        const stream = createStream(request.stream, request.language, request.offsetSeconds, request.firstSegmentId);
        streams.set(request.stream, { stream, resampler: await createStreamResampler(request.sampleRate, LIVE_SAMPLE_RATE) });
      } catch (error) {
        send({ type: 'error', stream: request.stream, ...jobFailureOf(error) });
      }
      return;
    case 'audio': {
      const open = streams.get(request.stream);
      try {
        if (open) open.stream.accept(open.resampler.push(s16leToFloat(request.pcm)));
      } catch (error) {
        send({ type: 'error', stream: request.stream, ...jobFailureOf(error) });
      }
      send({ type: 'processed', stream: request.stream, bytes: request.pcm.byteLength });
      return;
    }
    case 'end': {
      const open = streams.get(request.stream);
      streams.delete(request.stream);
      accounts.delete(request.stream);
      try {
        if (open) {
          open.stream.accept(open.resampler.finish());
          open.stream.finish();
          open.stream.dispose();
        }
      } catch (error) {
        send({ type: 'error', stream: request.stream, ...jobFailureOf(error) });
      }
      send({ type: 'ended', stream: request.stream });
      return;
    }
  }
}

parent.onMessage((raw) => {
  const request = raw as RecognizerRequest;
  switch (request.type) {
    case 'load':
      try {
        load(request.model);
        send({ type: 'ready' });
      } catch (error) {
        send({ type: 'load-failed', message: jobFailureOf(error).message });
      }
      return;
    case 'close':
      // At once, not in turn: the stream's backlog goes with it.
      queue.drop(request.stream);
      accounts.delete(request.stream);
      if (working === request.stream) closedWhileWorking.add(request.stream);
      else dispose(request.stream);
      return;
    case 'open':
      accounts.set(request.stream, request.account);
      queue.push(request.account, request.stream, request);
      void pump();
      return;
    default:
      queue.push(accounts.get(request.stream) ?? '', request.stream, request);
      void pump();
  }
});
parent.onParentGone(() => process.exit(0));
