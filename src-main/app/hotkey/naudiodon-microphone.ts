/**
 * Dictate anywhere's microphone where the sound server's recorder (parec) is not there — macOS and Windows: the
 * default input through PortAudio (naudiodon, already the desktop app's native player), asked for 16 kHz mono PCM16,
 * which PortAudio's host APIs convert to from the device's own rate (Core Audio; MME on Windows). Opens and closes pass
 * PortAudio's one gate of the process (player/portaudio-gate.ts): an open while another stream closes crashes it.
 */
import { CAPTURE_SAMPLE_RATE, type PcmSource } from '../../engines/capture/capture-types.js';
import { loadNaudiodon, type IoStreamRead, type Naudiodon } from '../player/naudiodon-loader.js';
import { portAudio } from '../player/portaudio-gate.js';

/** PortAudio's buffer: 100 ms at 16 kHz, small enough for live partials. */
const FRAMES_PER_BUFFER = 1_600;

export class NaudiodonMicrophone implements PcmSource {
  readonly channel = 'microphone' as const;
  private stream: IoStreamRead | null = null;
  private stopped = false;

  constructor(private readonly load: () => Naudiodon = loadNaudiodon) {}

  start(onFrame: (pcm: Buffer) => void, ended: (reason: string | null) => void): void {
    let reported = false;
    const report = (reason: string | null): void => {
      if (reported) return;
      reported = true;
      ended(this.stopped ? null : reason);
    };
    portAudio.whenIdle(() => {
      if (this.stopped) return report(null);
      try {
        const naudiodon = this.load();
        const stream = naudiodon.AudioIO({
          inOptions: { channelCount: 1, sampleFormat: naudiodon.SampleFormat16Bit, sampleRate: CAPTURE_SAMPLE_RATE, deviceId: -1, framesPerBuffer: FRAMES_PER_BUFFER, closeOnError: true },
        });
        this.stream = stream;
        stream.on('data', (pcm: Buffer) => {
          if (!this.stopped) onFrame(pcm);
        });
        stream.on('error', (error: Error) => report(`the microphone stopped: ${error.message}`));
        stream.on('end', () => report(null));
        stream.start();
      } catch (error) {
        report(`the microphone could not be opened through PortAudio: ${(error as Error).message}`);
      }
    });
  }

  stop(): void {
    this.stopped = true;
    const stream = this.stream;
    this.stream = null;
    if (!stream) return;
    const closed = portAudio.closeStarted();
    void Promise.resolve()
      .then(() => stream.quit(closed))
      .catch(() => undefined)
      .finally(closed);
  }
}
