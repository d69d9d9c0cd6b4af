/**
 * Browser-mode login, like Jupyter's: `voxdesk serve --ui` prints the UI's address with a one-time token in the
 * fragment (`http://127.0.0.1:PORT/#token=…`; a fragment is never sent to a server or written to its logs). The page
 * trades the token for a session key at POST /v1/session/bootstrap and keeps the key; the token then stops working.
 * Without it the bootstrap answers 401 even from loopback, so neither another OS user on the machine nor the holder
 * of another account's key can become the local account by asking. Only the token's sha256 is kept, compared in
 * constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const hash = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export class BrowserLogin {
  private tokenHash: Buffer | null = null;

  /** @param openSession makes a session key for the local account (valid until the service stops). */
  constructor(private readonly openSession: () => string) {}

  /** A fresh one-time token (32 random bytes, base64url); the previous one stops working. */
  issue(): string {
    const token = randomBytes(32).toString('base64url');
    this.tokenHash = hash(token);
    return token;
  }

  /** Trades the current token for a session key, once; null for a wrong, used or missing token. */
  redeem(token: string | null | undefined): string | null {
    if (!this.tokenHash || typeof token !== 'string' || token.length === 0) return null;
    if (!timingSafeEqual(hash(token), this.tokenHash)) return null;
    this.tokenHash = null;
    return this.openSession();
  }
}
