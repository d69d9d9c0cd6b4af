/**
 * Whether the page greets a new person: on a data dir with no job yet and no recognizer chosen beyond the built-in
 * PocketSphinx, until they pick a way to go (download the recommended recognizer, use PocketSphinx for now, or skip).
 * It is decided once, when the page has first loaded the jobs and the catalogue, and stays until the person
 * chooses (a download finishing meanwhile does not take it away). The choice is remembered per data dir in this
 * browser, so a new data dir greets again and a returning person never sees it twice.
 */
import type { AppState } from '../shared/service/app-state.svelte.js';
import { hasChosenRecognizer } from './recommendation.js';

const KEY = 'voxdesk.welcomed:';

export class FirstStart {
  #state = $state<'undecided' | 'showing' | 'done'>('undecided');

  constructor(private readonly app: AppState) {}

  get showing(): boolean {
    return this.#state === 'showing';
  }

  /** Decides, once the lists are loaded, whether this is a first start (App.svelte calls it from an effect). */
  decide(): void {
    const app = this.app;
    if (this.#state !== 'undecided' || !app.client || !app.jobsLoaded || !app.modelsLoaded) return;
    const welcomed = globalThis.localStorage?.getItem(KEY + (app.dataDir ?? '')) === 'done';
    this.#state = !welcomed && app.jobs.length === 0 && !hasChosenRecognizer(app.models) ? 'showing' : 'done';
  }

  /** The person chose their way; the welcome is not shown again for this data dir. */
  done(): void {
    this.#state = 'done';
    globalThis.localStorage?.setItem(KEY + (this.app.dataDir ?? ''), 'done');
  }
}
