/**
 * Which OpenAI-compatible chat endpoint an account's AI actions use (GET/PUT /v1/settings/language-model): base URL
 * and model in the node's settings table (row `language-model:<account id>`), the API key sealed in the secrets table
 * (`language-model.key:<account id>`) by the same SecretStore that seals the hosted service's key
 * (remote-settings-store.ts): never stored in plain text, never returned (`api_key_set` says whether one is kept).
 *
 * Like the hosted key, these live in the node's own SQLite file (service/open-store.ts): in a cluster each node that
 * runs AI actions needs them set (docs/ai-actions.md).
 */
import type { LanguageModelSettingsInfo } from '../../common/ai-types.js';
import type { SecretStore } from '../../store/secrets/secret-store.js';
import { SecretUnavailableError } from '../../store/secrets/secret-cipher.js';
import type { SettingsRepo } from '../../store/settings-repo.js';
import { parsePrice, type LanguageModelPrice } from './ai-pricing.js';
import type { LanguageModelEndpoint } from './language-model-client.js';

const settingKey = (accountId: string): string => `language-model:${accountId}`;
const secretName = (accountId: string): string => `language-model.key:${accountId}`;

/** What GET /v1/settings/language-model answers. */
export type LanguageModelSettingsView = LanguageModelSettingsInfo;

/** A PUT's fields after checking: `apiKey` undefined keeps the stored key, null clears it. */
export interface LanguageModelSettingsUpdate {
  baseUrl: string | null;
  model: string | null;
  /** The model's context window in tokens (null: DEFAULT_CONTEXT_TOKENS). */
  contextTokens: number | null;
  /** What a hosted endpoint charges (null: nothing, a local endpoint; ai-pricing.ts). */
  price: LanguageModelPrice | null;
  apiKey?: string | null;
}

/** An endpoint with the context its transcripts are split for, and its price. */
export interface ConfiguredLanguageModel extends LanguageModelEndpoint {
  contextTokens: number | null;
  price: LanguageModelPrice | null;
}

export class LanguageModelSettings {
  constructor(
    private readonly repo: SettingsRepo,
    private readonly secrets: SecretStore,
  ) {}

  view(accountId: string): LanguageModelSettingsView {
    const { baseUrl, model, contextTokens, price } = this.stored(accountId);
    const { key, problem } = this.key(accountId);
    return { base_url: baseUrl, model, context_tokens: contextTokens, price, api_key_set: key !== null, key_problem: problem, configured: baseUrl !== null && model !== null };
  }

  update(accountId: string, update: LanguageModelSettingsUpdate): LanguageModelSettingsView {
    if (update.baseUrl === null && update.model === null) this.repo.delete(settingKey(accountId));
    else this.repo.set(settingKey(accountId), { base_url: update.baseUrl, model: update.model, context_tokens: update.contextTokens, price: update.price });
    if (update.apiKey !== undefined) this.secrets.set(secretName(accountId), update.apiKey);
    return this.view(accountId);
  }

  /** The endpoint an action calls, or null when the account has none configured. */
  endpoint(accountId: string): ConfiguredLanguageModel | null {
    const { baseUrl, model, contextTokens, price } = this.stored(accountId);
    if (baseUrl === null || model === null) return null;
    return { baseUrl, model, contextTokens, price, apiKey: this.key(accountId).key };
  }

  private stored(accountId: string): { baseUrl: string | null; model: string | null; contextTokens: number | null; price: LanguageModelPrice | null } {
    const value = this.repo.get<{ base_url?: unknown; model?: unknown; context_tokens?: unknown; price?: unknown }>(settingKey(accountId)) ?? {};
    let price: LanguageModelPrice | null;
    try {
      price = parsePrice(value.price);
    } catch {
      price = null; // written by this class only after the same check; never read as a price it did not take
    }
    return {
      price,
      contextTokens: typeof value.context_tokens === 'number' ? value.context_tokens : null,
      baseUrl: typeof value.base_url === 'string' && value.base_url ? value.base_url : null,
      model: typeof value.model === 'string' && value.model ? value.model : null,
    };
  }

  private key(accountId: string): { key: string | null; problem: string | null } {
    try {
      return { key: this.secrets.get(secretName(accountId)), problem: null };
    } catch (error) {
      if (!(error instanceof SecretUnavailableError)) throw error;
      return { key: null, problem: error.message };
    }
  }
}

/**
 * An http(s) base URL for chat requests, without a trailing slash: `http://127.0.0.1:11434/v1`. A URL that already
 * ends in `/chat/completions` or `/models` (pasted from a server's docs) is cut back to its base. Throws with a
 * message that says what is wrong.
 */
export function normaliseBaseUrl(input: string): string {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    throw new Error(`base_url "${input}" is not a URL (expected e.g. http://127.0.0.1:11434/v1 for Ollama)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`base_url "${input}" must be an http:// or https:// URL`);
  if (parsed.username || parsed.password) throw new Error('base_url must not carry a user name or password; put the key in api_key');
  if (parsed.search || parsed.hash) throw new Error(`base_url "${input}" must not carry a query or a fragment`);
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/(chat\/completions|models)$/, '');
  return `${parsed.origin}${path}`;
}
