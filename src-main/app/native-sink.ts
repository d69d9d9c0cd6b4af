/**
 * The native audio sink of the Live tab: the naudiodon player of src-main/app/player (live-audio engineer).
 * Loaded lazily so the window opens even where the audio device or the native module is missing; then the Live
 * tab reports the player's error in words.
 */
import type { PcmSink } from './native-live-session.js';

interface PlayerLike {
  write(pcm: Int16Array | Buffer): unknown;
  stop(): unknown;
  on?(event: 'error', listener: (err: Error) => void): unknown;
}
interface PlayerModule {
  createPlayer(options: { sampleRate: number }): PlayerLike | Promise<PlayerLike>;
}

/** Module path of the player, relative to this file. */
export const PLAYER_MODULE = './player/player.js';

export async function loadNativeSink(sampleRate: number): Promise<PcmSink> {
  let mod: Partial<PlayerModule>;
  try {
    mod = (await import(PLAYER_MODULE)) as Partial<PlayerModule>;
  } catch (cause) {
    throw new Error('the native audio player could not be loaded (naudiodon)', { cause });
  }
  if (typeof mod.createPlayer !== 'function') throw new Error('the native audio player module has no createPlayer()');
  const player = await mod.createPlayer({ sampleRate });
  player.on?.('error', () => undefined);
  return {
    write: (pcm) => void player.write(pcm),
    stop: () => void player.stop(),
  };
}
