/**
 * The dictation microphone's AudioWorklet (runs on the audio rendering thread, never the page's): turns the input at
 * the context's rate into 16 kHz PCM16 mono, posted to the page in 100 ms frames, plus the input level for the meter.
 * When the context already runs at 16 kHz (Chromium resamples the microphone for it) samples pass straight through;
 * otherwise they are low-pass filtered (windowed sinc at 7.2 kHz) and resampled by interpolation. Built by Vite as a
 * file of its own (`?worker&url`) so the page's CSP (`script-src 'self'`) allows it.
 */

// The worklet's global scope (AudioWorkletGlobalScope) is not in TypeScript's DOM library.
declare const sampleRate: number;
declare function registerProcessor(name: string, processor: new () => unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

export const TARGET_RATE = 16_000;
/** 16 kHz samples per posted frame: 100 ms. */
const FRAME = 1600;
const TAPS = 31;

/** The messages the page receives. */
export type CaptureMessage = { type: 'pcm'; pcm: ArrayBuffer } | { type: 'level'; rms: number; peak: number };

function lowPass(ratio: number): Float32Array {
  const cutoff = (0.45 / ratio) * 2; // of the input's Nyquist: 7.2 kHz at any input rate
  const taps = new Float32Array(TAPS);
  const mid = (TAPS - 1) / 2;
  let sum = 0;
  for (let i = 0; i < TAPS; i++) {
    const x = i - mid;
    const sinc = x === 0 ? cutoff : Math.sin(Math.PI * cutoff * x) / (Math.PI * x);
    const window = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (TAPS - 1));
    taps[i] = sinc * window;
    sum += taps[i]!;
  }
  for (let i = 0; i < TAPS; i++) taps[i]! /= sum;
  return taps;
}

class PcmCapture extends AudioWorkletProcessor {
  private readonly ratio = sampleRate / TARGET_RATE;
  private readonly taps = this.ratio > 1 ? lowPass(this.ratio) : null;
  /** Recent input (filter history). */
  private readonly history = new Float32Array(TAPS);
  private filtered: number[] = [];
  /** Position of the next output sample in filtered-input samples. */
  private position = 0;
  private frame = new Int16Array(FRAME);
  private fill = 0;
  private levelSum = 0;
  private levelPeak = 0;
  private levelCount = 0;

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (!channel) return true;
    for (let i = 0; i < channel.length; i++) {
      const x = channel[i]!;
      this.levelSum += x * x;
      this.levelPeak = Math.max(this.levelPeak, Math.abs(x));
      this.levelCount++;
      if (!this.taps) {
        this.push(x);
        continue;
      }
      this.history.copyWithin(0, 1);
      this.history[TAPS - 1] = x;
      let y = 0;
      for (let k = 0; k < TAPS; k++) y += this.history[k]! * this.taps[k]!;
      this.filtered.push(y);
    }
    if (this.taps) this.resample();
    if (this.levelCount >= sampleRate / 20) {
      this.port.postMessage({ type: 'level', rms: Math.sqrt(this.levelSum / this.levelCount), peak: this.levelPeak } satisfies CaptureMessage);
      this.levelSum = 0;
      this.levelPeak = 0;
      this.levelCount = 0;
    }
    return true;
  }

  private resample(): void {
    const input = this.filtered;
    while (this.position + 1 < input.length) {
      const i = Math.floor(this.position);
      const t = this.position - i;
      this.push(input[i]! * (1 - t) + input[i + 1]! * t);
      this.position += this.ratio;
    }
    const used = Math.floor(this.position);
    this.filtered = input.slice(used);
    this.position -= used;
  }

  private push(x: number): void {
    const s = Math.round(x * 32768);
    this.frame[this.fill++] = s > 32767 ? 32767 : s < -32768 ? -32768 : s;
    if (this.fill < FRAME) return;
    const pcm = this.frame.buffer;
    this.port.postMessage({ type: 'pcm', pcm } satisfies CaptureMessage, [pcm]);
    this.frame = new Int16Array(FRAME);
    this.fill = 0;
  }
}

registerProcessor('voxdesk-pcm-capture', PcmCapture);
