/**
 * The microphone for dictation: getUserMedia (the chosen device, mono; echo cancellation on so that Voxdesk's own
 * speech is not transcribed; noise suppression and automatic gain off: they reshape the spectrum recognizers read
 * and cost PocketSphinx words in the browser test) into an AudioWorklet (pcm-capture-worklet.ts) that hands back
 * 16 kHz PCM16 frames and the input level. The context is asked to run at 16 kHz so the browser does the
 * resampling; where a browser cannot connect a microphone to a context of another rate, the context runs at its own
 * rate and the worklet resamples. The same code runs in the desktop app (the window grants audio capture to the
 * app's own page only) and in a browser.
 */
import workletUrl from './pcm-capture-worklet.ts?worker&url';
import { PageError } from '../../shared/error-messages.js';
import { t } from '../../shared/i18n/i18n.svelte.js';
import type { CaptureMessage } from './pcm-capture-worklet.js';

/** The rate the dictation socket is told (the worklet's output rate). */
export const CAPTURE_RATE = 16_000;

export interface MicHandlers {
  onPcm(pcm: ArrayBuffer): void;
  onLevel(rms: number, peak: number): void;
}

export interface MicDevice {
  id: string;
  label: string;
}

/** The audio inputs (labels appear once the person has allowed the microphone). */
export async function listMicrophones(): Promise<MicDevice[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((d) => d.kind === 'audioinput')
    .map((d, i) => ({ id: d.deviceId, label: d.label || (d.deviceId === 'default' ? t('dictate.defaultMicrophone') : t('dictate.microphoneNumber', { number: i + 1 })) }));
}

/**
 * The microphone as a stream (the browser may prompt): mono, echo cancellation on, the rest off (see above).
 * Rejects with a PageError saying why not.
 */
export async function microphoneStream(deviceId: string | null): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new PageError('microphone_insecure');
  }
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: {
        ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
        channelCount: 1,
        echoCancellation: true,
        noiseSuppression: false,
        autoGainControl: false,
      },
    });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'NotAllowedError') throw new PageError('microphone_not_allowed');
    if (name === 'NotFoundError' || name === 'OverconstrainedError') throw new PageError('microphone_not_found');
    throw new PageError('microphone_failed', (error as Error).message);
  }
}

export class MicCapture {
  private stream: MediaStream | null = null;
  private context: AudioContext | null = null;
  private node: AudioWorkletNode | null = null;

  constructor(private readonly handlers: MicHandlers) {}

  /** Asks for the microphone (the browser may prompt) and starts capturing; rejects with a PageError saying why not. */
  async start(deviceId: string | null): Promise<void> {
    await this.attach(await microphoneStream(deviceId));
  }

  /**
   * Captures a stream obtained elsewhere (the computer's sound of a meeting, system-audio.ts) the same way; the
   * capture owns it from now on (stop() ends its tracks).
   */
  async attach(stream: MediaStream): Promise<void> {
    this.stream = stream;
    try {
      await this.connect(CAPTURE_RATE);
    } catch {
      // Some browsers cannot feed a microphone into a context of another rate: the worklet resamples instead.
      await this.teardownGraph();
      await this.connect(undefined);
    }
  }

  private async connect(rate: number | undefined): Promise<void> {
    const context = new AudioContext(rate ? { sampleRate: rate } : {});
    this.context = context;
    await context.audioWorklet.addModule(workletUrl);
    const source = context.createMediaStreamSource(this.stream!);
    const node = new AudioWorkletNode(context, 'voxdesk-pcm-capture', { numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1, channelCountMode: 'explicit' });
    node.port.onmessage = (event: MessageEvent<CaptureMessage>) => {
      const message = event.data;
      if (message.type === 'pcm') this.handlers.onPcm(message.pcm);
      else this.handlers.onLevel(message.rms, message.peak);
    };
    source.connect(node);
    this.node = node;
    await context.resume();
  }

  private async teardownGraph(): Promise<void> {
    this.node?.port.close();
    this.node?.disconnect();
    this.node = null;
    await this.context?.close().catch(() => undefined);
    this.context = null;
  }

  async stop(): Promise<void> {
    await this.teardownGraph();
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
  }
}
