/** What a live session needs from a voice: stream one sentence's samples, stoppable. */

export interface SentenceRequest {
  text: string;
  speed: number;
  /** Receives 16-bit samples as they are made (may be called many times). */
  onSamples(samples: Int16Array): void;
}

export interface SentenceHandle {
  /** Resolves when the sentence is done or stopped; rejects with a JobError-like {code, message} on failure. */
  done: Promise<void>;
  /** Stops the sentence as soon as the engine can (eSpeak: at its next chunk). */
  cancel(): void;
}

export interface LiveVoice {
  readonly sampleRate: number;
  speakSentence(request: SentenceRequest): SentenceHandle;
}
