/**
 * Recordings dropped for a hosted model wait here until the person has seen the price and clicks Transcribe: hosted
 * work costs money, so it never starts on a drop alone. Each file's length is read from its metadata in the browser
 * (media-duration.ts) to price it; a file whose length the browser cannot tell is priced by its request fee, and
 * charged for the length the service measures.
 */
import { mediaSeconds } from './media-duration.js';

/** Files measured at once. */
const MEASURE_CONCURRENCY = 3;

export class StagedFiles {
  files = $state.raw<File[]>([]);
  /** Seconds of each file, in the same order; null while unknown. */
  seconds = $state.raw<(number | null)[]>([]);
  /** Files whose length is still being read. */
  measuring = $state(0);
  #generation = 0;

  constructor(private readonly measure: (file: File) => Promise<number | null> = mediaSeconds) {}

  /** Known seconds, summed. */
  get knownSeconds(): number {
    return this.seconds.reduce<number>((sum, s) => sum + (s ?? 0), 0);
  }

  /** Files whose length could not be read (after measuring). */
  get unknown(): number {
    return this.measuring > 0 ? 0 : this.seconds.filter((s) => s === null).length;
  }

  add(files: readonly File[]): void {
    if (!files.length) return;
    const start = this.files.length;
    this.files = [...this.files, ...files];
    this.seconds = [...this.seconds, ...files.map(() => null)];
    const generation = this.#generation;
    let next = 0;
    this.measuring += files.length;
    const worker = async (): Promise<void> => {
      while (next < files.length) {
        const i = next++;
        const seconds = await this.measure(files[i]!).catch(() => null);
        if (generation !== this.#generation) return;
        this.seconds = this.seconds.with(start + i, seconds);
        this.measuring--;
      }
    };
    for (let i = 0; i < Math.min(MEASURE_CONCURRENCY, files.length); i++) void worker();
  }

  /** Hands the files over (to be sent) and empties the list. */
  take(): File[] {
    const files = this.files;
    this.clear();
    return files;
  }

  clear(): void {
    this.#generation++;
    this.files = [];
    this.seconds = [];
    this.measuring = 0;
  }
}
