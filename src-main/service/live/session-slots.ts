/**
 * How many live sessions may be open at once, per account and in all, for one route (trust review 2, item 3: one
 * account opened 200 dictation sessions, all accepted, and the shared recognizer grew to 3.5 GB). A slot is taken
 * when a session is admitted — before the model loads, so a flood of upgrades cannot all pass the check — and given
 * back when its socket closes or its admission fails.
 */

export interface SessionCaps {
  perAccount: number;
  total: number;
}

export class SessionSlots {
  private readonly byAccount = new Map<string, number>();
  private open = 0;

  constructor(private readonly caps: SessionCaps) {}

  /** A slot for the account (call the answer to give it back, once), or why there is none. */
  take(accountId: string): { release: () => void } | { refused: string } {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (mine >= this.caps.perAccount) {
      return { refused: `this account already has ${mine} of these live sessions open (at most ${this.caps.perAccount}); close one and try again` };
    }
    if (this.open >= this.caps.total) {
      return { refused: `the service has ${this.open} of these live sessions open, as many as it takes (${this.caps.total}); try again in a moment` };
    }
    this.byAccount.set(accountId, mine + 1);
    this.open += 1;
    let given = false;
    return {
      release: () => {
        if (given) return;
        given = true;
        this.open -= 1;
        const left = (this.byAccount.get(accountId) ?? 1) - 1;
        if (left > 0) this.byAccount.set(accountId, left);
        else this.byAccount.delete(accountId);
      },
    };
  }
}

/** The WebSocket close code for "try again later" (RFC 6455's registry, 1013): a session refused for being one too many. */
export const CLOSE_TRY_AGAIN_LATER = 1013;
