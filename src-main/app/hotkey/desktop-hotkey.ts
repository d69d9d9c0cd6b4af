/**
 * Dictate anywhere in the desktop app (docs/capture.md): the person's settings (hotkey-settings.ts) turned into a
 * watched global shortcut — the keyboard hook (keyboard-hook.ts) feeding hold-to-talk or toggle (hold-to-talk.ts),
 * which starts and stops a dictation on the service's own socket (hotkey-dictation.ts) whose text goes into the
 * focused app (choose-inserter.ts), with the indicator showing each step. It works while the window is hidden (the
 * app in the tray). When it cannot be armed — no display, Wayland, a library or permission missing, a shortcut that
 * cannot be read, no live model — `status().problem` says why, and the page's
 * settings show it.
 */
import type { CatalogueRecord, ListResponse } from '../../common/api-types.js';
import type { PcmSource } from '../../engines/capture/capture-types.js';
import { PulseSource } from '../../engines/capture/pulse-source.js';
import type { ClipboardLike } from './clipboard-paste-insertion.js';
import { chooseInserter } from './choose-inserter.js';
import { HoldToTalk } from './hold-to-talk.js';
import { HotkeyDictation, type DictationOutcome, type IndicatorState } from './hotkey-dictation.js';
import type { HotkeySettings } from './hotkey-settings.js';
import { loadKeyboardHook, type KeyboardHook } from './keyboard-hook.js';
import { NaudiodonMicrophone } from './naudiodon-microphone.js';
import { modifierKeycodes, parseShortcut } from './shortcut.js';
import type { Log } from '../../common/log.js';

export interface DesktopHotkeyOptions {
  serviceUrl: string;
  apiKey: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Electron's clipboard (macOS, Windows). */
  clipboard?: ClipboardLike;
  /** macOS: may the app send keys (and, with prompt, ask the person). */
  trusted?: (prompt: boolean) => boolean;
  indicator(state: IndicatorState): void;
  log: Log;
  /** Default: uiohook-napi (keyboard-hook.ts). */
  loadHook?: (env: NodeJS.ProcessEnv, platform: NodeJS.Platform) => KeyboardHook;
  /** Default: the sound server's default source through parec (Linux); the default input through PortAudio elsewhere. */
  microphone?: () => PcmSource;
  /** How long a release waits for the last words. Default 30 s (hotkey-dictation.ts). */
  endTimeoutMs?: number;
}

export interface HotkeyStatus {
  armed: boolean;
  problem: string | null;
  model: string | null;
}

export class DesktopHotkey {
  private hook: KeyboardHook | null = null;
  private hookError: string | null = null;
  private talk: HoldToTalk | null = null;
  private dictation: HotkeyDictation | null = null;
  private current: HotkeyStatus = { armed: false, problem: 'not started', model: null };
  private readonly env: NodeJS.ProcessEnv;
  private readonly platform: NodeJS.Platform;
  /** The dictations that ended, last first (tests and the benchmark read the outcome). */
  readonly outcomes: DictationOutcome[] = [];
  private pending: Promise<DictationOutcome> | null = null;

  constructor(private readonly options: DesktopHotkeyOptions) {
    this.env = options.env ?? process.env;
    this.platform = options.platform ?? process.platform;
  }

  status(): HotkeyStatus {
    return { ...this.current };
  }

  /** Seconds of audio the dictation listening now has recorded (0 when none). */
  listeningSeconds(): number {
    return this.dictation?.seconds ?? 0;
  }

  /** The dictation that was stopped last, once its text is in (or could not be). */
  lastOutcome(): Promise<DictationOutcome> | null {
    return this.pending;
  }

  /** Arms (or disarms) the shortcut for these settings; answers how it stands. */
  async apply(settings: HotkeySettings): Promise<HotkeyStatus> {
    this.disarm();
    if (!settings.enabled) return (this.current = { armed: false, problem: null, model: null });
    const model = settings.model ?? (await this.firstLiveModel());
    if (!model) return (this.current = { armed: false, problem: 'no on-device live speech model is installed: download one on the Models tab (PocketSphinx or a streaming Zipformer)', model: null });
    const microphone = this.options.microphone ?? this.defaultMicrophone();
    const hook = this.ensureHook();
    if (!hook) return (this.current = { armed: false, problem: this.hookError, model });
    let shortcut;
    try {
      shortcut = parseShortcut(settings.shortcut, hook.keys);
    } catch (error) {
      return (this.current = { armed: false, problem: (error as Error).message, model });
    }
    if (this.platform === 'darwin' && this.options.trusted && !this.options.trusted(true)) {
      return (this.current = { armed: false, problem: 'macOS has not allowed Voxdesk to watch the shortcut and paste: allow it under System Settings → Privacy & Security → Accessibility, then turn dictate anywhere off and on', model });
    }
    let inserter;
    try {
      inserter = chooseInserter({ platform: this.platform, env: this.env, mode: settings.insertion, clipboard: this.options.clipboard, trusted: () => this.options.trusted?.(false) ?? true });
    } catch (error) {
      return (this.current = { armed: false, problem: (error as Error).message, model });
    }
    const dictation = new HotkeyDictation({
      serviceUrl: this.options.serviceUrl,
      apiKey: this.options.apiKey,
      model: () => model,
      microphone,
      inserter,
      show: (state) => this.options.indicator(state),
      log: this.options.log,
      ...(this.options.endTimeoutMs !== undefined ? { endTimeoutMs: this.options.endTimeoutMs } : {}),
    });
    this.dictation = dictation;
    this.talk = new HoldToTalk(shortcut, settings.mode, modifierKeycodes(hook.keys), {
      start: () => dictation.start(),
      stop: () => {
        const outcome = dictation.stop();
        this.pending = outcome;
        void outcome.then((done) => {
          this.outcomes.unshift(done);
          this.outcomes.length = Math.min(this.outcomes.length, 20);
          if (done.error) this.options.log.info(`dictate anywhere: ${done.error}`);
        });
      },
    });
    return (this.current = { armed: true, problem: null, model });
  }

  /** Quitting: the hook stops (a dictation still listening ends and is kept as its job). */
  async close(): Promise<void> {
    const dictation = this.dictation;
    this.disarm();
    if (dictation?.active) await dictation.stop();
    this.hook?.stop();
    this.hook = null;
  }

  private disarm(): void {
    this.talk?.reset();
    this.talk = null;
    this.dictation = null;
  }

  /** The hook is loaded and started once (its listeners reach whichever shortcut is armed now). */
  private ensureHook(): KeyboardHook | null {
    if (this.hook) return this.hook;
    try {
      const hook = (this.options.loadHook ?? loadKeyboardHook)(this.env, this.platform);
      hook.on('keydown', (e) => this.talk?.keydown(e));
      hook.on('keyup', (e) => this.talk?.keyup(e));
      hook.start();
      this.hook = hook;
      this.hookError = null;
    } catch (error) {
      this.hookError = (error as Error).message;
    }
    return this.hook;
  }

  /** Linux: the sound server's default source through parec; elsewhere the default input through PortAudio. */
  private defaultMicrophone(): () => PcmSource {
    if (this.platform === 'linux') return () => new PulseSource('microphone', '@DEFAULT_SOURCE@', this.env);
    return () => new NaudiodonMicrophone();
  }

  private async firstLiveModel(): Promise<string | null> {
    try {
      const response = await fetch(`${this.options.serviceUrl}/v1/models?capability=asr`, { headers: { authorization: `Bearer ${this.options.apiKey}` } });
      if (!response.ok) return null;
      const list = (await response.json()) as ListResponse<CatalogueRecord>;
      return list.data.find((m) => m.live && m.provider === 'local' && m.status === 'available')?.id ?? null;
    } catch (error) {
      this.options.log.info(`dictate anywhere could not list the models: ${(error as Error).message}`);
      return null;
    }
  }
}
