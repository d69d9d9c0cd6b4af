/**
 * The service's view of accounts and API keys, over the store's accounts repository (the SQL lives there): create
 * and register keys for named accounts, and find the owner of a presented key.
 */
import type { AccountsRepo } from '../../store/accounts-repo.js';

export interface KeyOwner {
  accountId: string;
  accountName: string;
}

export class ApiKeys {
  constructor(private readonly repo: AccountsRepo) {}

  /** The id of the named account, created on first use. */
  ensureAccount(name: string): string {
    return this.repo.ensureAccount(name).id;
  }

  /** A fresh key for the named account (created if missing); shown once, stored hashed. */
  createKey(accountName: string): string {
    return this.repo.createApiKey(this.ensureAccount(accountName)).key;
  }

  /** Registers a key chosen elsewhere (VOXDESK_API_KEY) for the named account; idempotent. */
  registerKey(accountName: string, key: string): void {
    this.repo.registerApiKey(this.ensureAccount(accountName), key);
  }

  find(key: string): KeyOwner | undefined {
    const account = this.repo.findAccountByKey(key);
    return account ? { accountId: account.id, accountName: account.name } : undefined;
  }
}
