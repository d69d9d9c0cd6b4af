/**
 * Gives the C heap's free pages back to the operating system, for a long-running child process whose native code and
 * audio buffers of every size fragment glibc's heap: in a two-hour meeting the live recognizer (PocketSphinx, Silero
 * VAD, a PCM buffer per message) used a flat 98 MB of its heap while holding 15–30 MB more it had freed, in 1,100–2,000
 * pieces that glibc keeps until asked, and its resident memory rose 28 MB in the first hour (bench/capture-soak.ts).
 * `malloc_trim(0)` returns every free page, from the middle of the heap too, in a few milliseconds.
 *
 * Linux with glibc only: elsewhere (macOS, Windows, a musl Linux) the allocator gives memory back by itself or
 * differently, and the trimmer does nothing.
 */
import koffi from 'koffi';

/** Returns free heap pages to the OS; true when it released any. A no-op (false) where glibc is not the allocator. */
export type MemoryTrimmer = () => boolean;

const none: MemoryTrimmer = () => false;
/** glibc's malloc_trim, bound on first use (a timer's first tick, not the process's start); null where there is none. */
let mallocTrim: ((pad: number) => number) | null | undefined;

function bindMallocTrim(): ((pad: number) => number) | null {
  try {
    // musl and other C libraries have no libc.so.6, or no malloc_trim in it: then there is nothing to call.
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
  } catch {
    return null;
  }
}

const glibcTrimmer: MemoryTrimmer = () => {
  if (mallocTrim === undefined) mallocTrim = bindMallocTrim();
  return mallocTrim ? mallocTrim(0) === 1 : false;
};

export function memoryTrimmer(platform: NodeJS.Platform = process.platform): MemoryTrimmer {
  return platform === 'linux' ? glibcTrimmer : none;
}
