/**
 * The ciphers of one secrets table and the rules for using them, apart from where the table is read: which cipher
 * seals a new value (the primary, if this process has one), which opens a stored one (the one that sealed it, when
 * at hand), and why one is missing. The node's own synchronous SecretStore (secret-store.ts) and the shared store's
 * asynchronous SharedSecrets (shared-secrets.ts) both seal and open through it, so the two cannot drift apart.
 */
import type { SealedSecret } from '../secrets-repo.js';
import { SecretUnavailableError, type SecretCipher } from './secret-cipher.js';
import type { Log } from '../../common/log.js';

export interface SecretSealerOptions {
  /** Seals every new value; null when this process may not seal (a cluster node without VOXDESK_SECRETS_KEY). */
  primary: SecretCipher | null;
  /** Other ciphers that may have sealed stored values (the primary need not be repeated). */
  openers?: readonly SecretCipher[];
  /** Why ciphers that sealed stored values are missing here, by kind (shown in SecretUnavailableError). */
  missing?: ReadonlyMap<string, string>;
  /** Why nothing can be sealed without a primary (the message a refused write shows). */
  refusal?: string;
  /** Diagnostics (never a value). */
  log?: Log;
  /** Called once, after the first value sealed (open-secret-store.ts: the key-file notice). */
  onFirstSeal?: () => void;
}

export class SecretSealer {
  private readonly ciphers: Map<string, SecretCipher>;
  private onFirstSeal: (() => void) | undefined;

  constructor(readonly options: SecretSealerOptions) {
    const all = [...(options.openers ?? []), ...(options.primary ? [options.primary] : [])];
    this.ciphers = new Map(all.map((c) => [c.kind, c]));
    this.onFirstSeal = options.onFirstSeal;
  }

  /** Which cipher seals new values (`electron-safe-storage`, `os-keyring`, `key-file`, `cluster-key`), or null. */
  get kind(): string | null {
    return this.options.primary?.kind ?? null;
  }

  /** Why a value cannot be sealed here; null when it can. */
  get refusal(): string | null {
    return this.options.primary ? null : (this.options.refusal ?? 'no cipher is at hand to seal secrets');
  }

  /** The sealed form of `value` under `name`; throws an Error with `refusal` when this process cannot seal. */
  seal(name: string, value: string): SealedSecret {
    const primary = this.options.primary;
    if (!primary) throw new Error(this.refusal!);
    const sealed = { sealed: primary.seal(name, value), sealedBy: primary.kind };
    if (this.onFirstSeal) {
      const notice = this.onFirstSeal;
      this.onFirstSeal = undefined;
      notice();
    }
    return sealed;
  }

  /**
   * Opens a stored value; `reseal` says it was sealed by another cipher than the primary (the caller stores it again,
   * so a key stored before a keyring was available moves into it). Throws SecretUnavailableError when it cannot.
   */
  open(name: string, row: SealedSecret): { value: string; reseal: boolean } {
    const cipher = this.ciphers.get(row.sealedBy);
    if (!cipher) throw new SecretUnavailableError(name, row.sealedBy, this.options.missing?.get(row.sealedBy) ?? 'that cipher is not available in this process');
    let value: string;
    try {
      value = cipher.open(name, row.sealed);
    } catch (error) {
      throw new SecretUnavailableError(name, row.sealedBy, `it does not open (${(error as Error).message})`);
    }
    return { value, reseal: this.options.primary !== null && cipher !== this.options.primary };
  }

  /** Says that a value moved to the primary cipher. */
  moved(name: string, from: string): void {
    this.options.log?.info(`secrets: ${name} moved from ${from} to ${this.kind}`);
  }
}
