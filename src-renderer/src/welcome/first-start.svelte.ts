/**
 * Whether the page greets a new person: on a new data dir (the service says so: no job yet, no recognizer chosen
 * beyond the built-in PocketSphinx), until they pick a way to go (download the recommended recognizer, use
 * PocketSphinx for now, or skip). It is decided once, as soon as the page is connected (one GET /v1/local/welcome), and
 * stays until the person chooses (a download finishing meanwhile does not take it away). The choice is remembered
 * per data dir in this browser, so a returning person never sees it twice.
 */
import { loadLocaleChoice, systemLanguages } from '../shared/i18n/locales.js';
import type { AppState } from '../shared/service/app-state.svelte.js';
import { speechLanguage } from './speech-language.js';
import { loadWelcomeOffer, type WelcomeOffer } from './welcome-offer.js';

const KEY = 'voxdesk.welcomed:';

export class FirstStart {
  #state = $state<'undecided' | 'deciding' | 'showing' | 'done'>('undecided');
  /** What the screen offers (set once decided to show). */
  offer = $state.raw<WelcomeOffer | null>(null);
  /** The language the recommendation is for. */
  readonly language: string;

  constructor(private readonly app: AppState) {
    const choice = loadLocaleChoice();
    this.language = speechLanguage(choice === 'system' ? null : choice, systemLanguages());
  }

  get showing(): boolean {
    return this.#state === 'showing';
  }

  /** Not decided yet: the page shows neither the welcome nor the tabs, so that neither flashes before the other. */
  get pending(): boolean {
    return this.#state === 'undecided' || this.#state === 'deciding';
  }

  /** Decides, once connected, whether this is a first start (App.svelte calls it from an effect). */
  decide(): void {
    const app = this.app;
    if (this.#state !== 'undecided' || !app.client) return;
    if (globalThis.localStorage?.getItem(KEY + (app.dataDir ?? '')) === 'done') {
      this.#state = 'done';
      return;
    }
    this.#state = 'deciding';
    loadWelcomeOffer(app.api, this.language).then(
      (offer) => {
        this.offer = offer;
        this.#state = offer.newDataDir ? 'showing' : 'done';
      },
      () => (this.#state = 'done'), // the service cannot say: no greeting rather than a wrong one
    );
  }

  /** The person chose their way; the welcome is not shown again for this data dir. */
  done(): void {
    this.#state = 'done';
    globalThis.localStorage?.setItem(KEY + (this.app.dataDir ?? ''), 'done');
  }
}
