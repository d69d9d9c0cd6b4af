/**
 * Whether the transcript should scroll to keep the word being played in view. It follows playback, but never
 * while the person is editing a segment, and not for a while after they scrolled or clicked in the transcript
 * themselves (they are reading something else): the page never jumps away from what someone is looking at.
 */

/** How long after the person's own scroll, wheel, touch or key press the transcript stays put. Default 4 s. */
export const HOLD_AFTER_USER_MS = 4000;

export class PlaybackFollower {
  #userAt = Number.NEGATIVE_INFINITY;
  #ownScrollUntil = 0;

  constructor(private readonly holdMs = HOLD_AFTER_USER_MS) {}

  /** The person moved the view (wheel, touch, keys, a drag on the scroll bar). */
  userMoved(now: number): void {
    this.#userAt = now;
  }

  /** A scroll event: ours (just asked for) or the person's. */
  scrolled(now: number): void {
    if (now > this.#ownScrollUntil) this.#userAt = now;
  }

  /** Call before scrolling programmatically: the scroll events of the next `ms` are ours. */
  willScroll(now: number, ms = 400): void {
    this.#ownScrollUntil = now + ms;
  }

  shouldFollow(now: number, editing: boolean): boolean {
    return !editing && now - this.#userAt >= this.holdMs;
  }
}

/** True when `child` is not wholly inside `box`'s visible area (both from getBoundingClientRect). */
export function outOfView(child: { top: number; bottom: number }, box: { top: number; bottom: number }, margin = 24): boolean {
  return child.top < box.top + margin || child.bottom > box.bottom - margin;
}
