/**
 * The page's services, made once by App.svelte and handed to every tab through context (shared/context.ts): the
 * connection to the service with its polled lists, navigation between tabs, the monthly budget, the tabs' shortcut
 * actions, the dictation hotkey, the recordings this page sent, the files it could not send, the retries it made,
 * the transcript previews of the Jobs list, the notes that long work finished, and whether a meeting capture records. A component reads the one it needs with `use(KEY)`; a test mounts a component with its
 * own.
 */
import { CAPTURE_WATCH, CaptureWatch } from './capture/capture-watch.svelte.js';
import { FINISH_NOTIFIER, FinishNotifier } from './jobs/finish-notifier.svelte.js';
import { RETRY_LINKS, RetryLinks } from './jobs/retry-links.svelte.js';
import { UNSENT_FILES, UnsentFiles } from './jobs/unsent-files.svelte.js';
import { DICTATE_HOTKEY, DictateHotkey } from './live/dictation/dictate-hotkey.js';
import { provide } from './shared/context.js';
import { BUDGET, SpendingBudget } from './shared/money/spending-budget.svelte.js';
import { NAVIGATION, Navigation } from './shared/navigation.svelte.js';
import { APP, AppState } from './shared/service/app-state.svelte.js';
import { TAB_ACTIONS, TabActions } from './shared/tab-actions.js';
import { RECORDINGS, SessionRecordings } from './transcripts/session-recordings.js';
import { PREVIEWS, TranscriptPreviews } from './transcripts/transcript-previews.svelte.js';

export interface PageServices {
  app: AppState;
  navigation: Navigation;
  budget: SpendingBudget;
  tabActions: TabActions;
  dictateHotkey: DictateHotkey;
  notifier: FinishNotifier;
  captureWatch: CaptureWatch;
}

/** Makes the services and provides them to the calling component and everything below it. */
export function providePageServices(): PageServices {
  const app = provide(APP, new AppState());
  const navigation = provide(NAVIGATION, new Navigation());
  provide(RECORDINGS, new SessionRecordings());
  provide(PREVIEWS, new TranscriptPreviews(() => app.api));
  provide(UNSENT_FILES, new UnsentFiles());
  provide(RETRY_LINKS, new RetryLinks());
  return {
    app,
    navigation,
    budget: provide(BUDGET, new SpendingBudget(app)),
    tabActions: provide(TAB_ACTIONS, new TabActions()),
    dictateHotkey: provide(DICTATE_HOTKEY, new DictateHotkey()),
    captureWatch: provide(CAPTURE_WATCH, new CaptureWatch(() => (app.client ? app : null))),
    notifier: provide(
      FINISH_NOTIFIER,
      new FinishNotifier(() => app.bridge !== null, {
        onOpen: (transcriptId) => (transcriptId ? navigation.openTranscriptAt(transcriptId, 0, null) : (navigation.tab = 'jobs')),
      }),
    ),
  };
}
