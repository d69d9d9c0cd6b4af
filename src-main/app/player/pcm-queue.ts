/**
 * The audio a player holds and has not handed to the device yet: 16-bit PCM chunks in order, taken from the front in
 * any amount, with the end of the input (after end() nothing more comes) and the backpressure of write() (the caller
 * waits for 'drain' once more than the high-water mark is held). No device and no timing here: player.ts owns those.
 */
export class PcmQueue {
  private readonly chunks: Buffer[] = [];
  private held = 0;
  private closed = false;
  private full = false;

  /** Bytes held. */
  get bytes(): number {
    return this.held;
  }

  /** True once end() was called: the input is complete. */
  get ended(): boolean {
    return this.closed;
  }

  get empty(): boolean {
    return this.chunks.length === 0;
  }

  /** Appends a copy of `bytes` (the caller may reuse its buffer). */
  push(bytes: Buffer): void {
    this.chunks.push(Buffer.from(bytes));
    this.held += bytes.length;
  }

  /**
   * The answer write() gives, asked once the player has taken what it could: true while less than `highWater` is
   * held; else false, and drained() will say when the writer may go on. (Asked before the player takes its share, a
   * 'drain' could fire inside write() itself, before the writer listens for it, and the writer would wait for ever.)
   */
  admit(highWater: number): boolean {
    if (this.held < highWater) return true;
    this.full = true;
    return false;
  }

  /** Marks the end of the input, after a last `tail` (the player's padding of silence). */
  end(tail: Buffer): void {
    this.chunks.push(tail);
    this.held += tail.length;
    this.closed = true;
  }

  /** The first `count` bytes (count ≤ bytes), in one buffer. */
  take(count: number): Buffer {
    const parts: Buffer[] = [];
    let need = count;
    while (need > 0) {
      const head = this.chunks[0]!;
      if (head.length <= need) {
        parts.push(this.chunks.shift()!);
        need -= head.length;
      } else {
        parts.push(head.subarray(0, need));
        this.chunks[0] = head.subarray(need);
        need = 0;
      }
    }
    this.held -= count;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, count);
  }

  /** Drops everything held (stop()). */
  clear(): void {
    this.chunks.length = 0;
    this.held = 0;
  }

  /** True once, when a writer was told to wait and the queue is back under `highWater`: time for 'drain'. */
  drained(highWater: number): boolean {
    if (!this.full || this.held >= highWater) return false;
    this.full = false;
    return true;
  }
}
