/**
 * A reference recording taken with the microphone for a cloned voice: MediaRecorder in the browser's own format
 * (WebM/Opus in Chromium, which the service reads), started and stopped by the person, kept as one Blob.
 */
export class MicrophoneTake {
  recording = $state(false);
  take = $state<Blob | null>(null);
  error = $state<string | null>(null);
  #recorder: MediaRecorder | null = null;
  #stream: MediaStream | null = null;

  async start(): Promise<void> {
    if (this.recording) return;
    this.error = null;
    this.take = null;
    try {
      this.#stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      this.error = (err as Error).message;
      return;
    }
    const chunks: Blob[] = [];
    const recorder = (this.#recorder = new MediaRecorder(this.#stream));
    recorder.ondataavailable = (event) => chunks.push(event.data);
    recorder.onstop = () => {
      this.take = new Blob(chunks, { type: recorder.mimeType || 'audio/webm' });
      for (const track of this.#stream?.getTracks() ?? []) track.stop();
      this.#stream = null;
    };
    recorder.start();
    this.recording = true;
  }

  stop(): void {
    if (!this.recording) return;
    this.recording = false;
    this.#recorder?.stop();
    this.#recorder = null;
  }
}
