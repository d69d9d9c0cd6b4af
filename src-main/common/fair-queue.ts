/**
 * The order shared work is done in when accounts compete for it: one queue per stream, served round-robin across
 * accounts and, within an account, across its streams — one item at a time. So an account with many streams gets one
 * turn in every account's, not one turn per stream, and a stream's own items still run in the order they came. A
 * stream that is dropped loses its waiting items at once. Used by the live recognizer (trust review 2, item 3: 200
 * sessions of one account left another account's dictation with no words after 71 s) and the export thread.
 */

export class FairQueue<T> {
  /** Accounts in turn order; each holds its streams in turn order, each stream its waiting items. */
  private readonly accounts = new Map<string, Map<number, T[]>>();
  private readonly accountOf = new Map<number, string>();

  /** Adds an item at the end of its stream's queue (the stream joins its account's turn if it was idle). */
  push(account: string, stream: number, item: T): void {
    this.accountOf.set(stream, account);
    let streams = this.accounts.get(account);
    if (!streams) {
      streams = new Map();
      this.accounts.set(account, streams);
    }
    let items = streams.get(stream);
    if (!items) {
      items = [];
      streams.set(stream, items);
    }
    items.push(item);
  }

  /** The next item in turn, or undefined when nothing waits; the account and stream served go to the back. */
  shift(): { stream: number; item: T } | undefined {
    const next = this.accounts.entries().next();
    if (next.done) return undefined;
    const [account, streams] = next.value;
    const [stream, items] = streams.entries().next().value as [number, T[]];
    const item = items.shift() as T;
    // Round-robin: this account moves behind the others, and this stream behind its account's others.
    this.accounts.delete(account);
    streams.delete(stream);
    if (items.length > 0) streams.set(stream, items);
    else this.accountOf.delete(stream);
    if (streams.size > 0) this.accounts.set(account, streams);
    return { stream, item };
  }

  /** Drops a stream's waiting items; answers how many there were. */
  drop(stream: number): T[] {
    const account = this.accountOf.get(stream);
    if (account === undefined) return [];
    this.accountOf.delete(stream);
    const streams = this.accounts.get(account)!;
    const items = streams.get(stream) ?? [];
    streams.delete(stream);
    if (streams.size === 0) this.accounts.delete(account);
    return items;
  }

  get size(): number {
    let n = 0;
    for (const streams of this.accounts.values()) for (const items of streams.values()) n += items.length;
    return n;
  }
}
