/**
 * A child process that tells the other side of a meeting capture apart by voice (docs/capture.md), so that no
 * speaker model runs in the service's thread and a native crash ends only this child. It answers two requests, one at
 * a time in arrival order:
 * - `embed`: one embedding of a finished utterance (the live transcript's provisional speakers, online-speakers.ts);
 * - `diarize`: who spoke when on the other side's channel of the finished recording, and each speaker's voice
 *   (engines/asr/diarization.ts, diarization-voices.ts: the same pyannote segmentation and embedding model, the same
 *   clustering as an ordinary diarized job), for the capture's job.
 */
import { s16leToFloat } from '../audio/pcm.js';
import { diarize, type DiarizationModels } from '../asr/diarization.js';
import { recordingVoices, voiceEmbedding } from '../asr/diarization-voices.js';
import { parentLink } from '../worker/parent-link.js';
import { readRecordingChannel } from './recording-channel.js';
import type { SpeakerReply, SpeakerRequest } from './speaker-protocol.js';

const parent = parentLink();
const send = (reply: SpeakerReply): void => parent.send(reply);
let models: DiarizationModels | null = null;

function handle(request: Exclude<SpeakerRequest, { type: 'load' }>): SpeakerReply {
  if (!models) return { type: 'failed', id: request.id, message: 'no speaker models were given' };
  try {
    if (request.type === 'embed') return { type: 'embedded', id: request.id, embedding: voiceEmbedding(models.embedding, s16leToFloat(request.pcm)) };
    const samples = readRecordingChannel(request.path, 2, request.channel);
    const turns = diarize(models, samples);
    return { type: 'diarized', id: request.id, turns, voices: turns.length > 0 ? recordingVoices(models.embedding, samples, turns) : [] };
  } catch (error) {
    return { type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
}

parent.onMessage((raw) => {
  const request = raw as SpeakerRequest;
  if (request.type === 'load') models = request.models;
  else send(handle(request));
});
parent.onParentGone(() => process.exit(0));
