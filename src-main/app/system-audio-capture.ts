/**
 * The computer's sound for a meeting capture on Windows and macOS (docs/capture.md): there the service cannot record
 * the output itself, so the page records it with getDisplayMedia and sends it as the capture's `system` side. Electron
 * answers getDisplayMedia through the session's display-media handler; this one grants the primary screen with
 * `audio: 'loopback'` (the system's output; the page drops the video at once), without a picker, and only:
 * - to the app's own page (its origin), and
 * - once, after the page armed it through the bridge (a validated IPC call made when the person starts a meeting),
 *   within ARM_MS; any other request is refused.
 * Chromium needs features switched on before the app is ready for the loopback to carry sound on macOS (12.3+:
 * ScreenCaptureKit) and on Linux (PulseAudio); Windows has it built in. The feature names are the ones the
 * electron-audio-loopback package sets; we took its approach, not the package, whose IPC handlers answer any sender
 * (docs/dependencies.md).
 */
import { APP_ORIGIN } from './app-protocol.js';
import { originOf } from './permission-policy.js';
import type { Log } from '../common/log.js';

/** Chromium features that let a screen share carry the system's sound (see the docblock). */
export const LOOPBACK_FEATURES = ['MacLoopbackAudioForScreenShare', 'MacSckSystemAudioLoopbackOverride', 'PulseaudioLoopbackForScreenShare'] as const;

/** How long an arming waits for the page's getDisplayMedia. */
export const ARM_MS = 10_000;

export interface CommandLineLike {
  appendSwitch(name: string, value?: string): void;
  getSwitchValue(name: string): string;
  hasSwitch(name: string): boolean;
  removeSwitch(name: string): void;
}

/** What Electron tells the handler about a getDisplayMedia call. */
export interface DisplayMediaRequestLike {
  readonly securityOrigin: string;
  readonly audioRequested: boolean;
}

/** What the handler answers: a screen and its sound, or REFUSED. */
export interface DisplayMediaStreamsLike {
  video?: { id: string; name: string };
  audio?: 'loopback';
}

/**
 * The refusal: Electron fails the page's getDisplayMedia when the callback is given null (CAPTURE_FAILURE in its
 * electron_browser_context.cc), which its typings do not spell; an empty object would throw in this process instead.
 */
export const REFUSED = null as unknown as DisplayMediaStreamsLike;

export interface DisplayMediaSessionLike {
  setDisplayMediaRequestHandler(handler: (request: DisplayMediaRequestLike, callback: (streams: DisplayMediaStreamsLike) => void) => void): void;
}

export interface DesktopCapturerLike {
  getSources(options: { types: 'screen'[] }): Promise<{ id: string; name: string }[]>;
}

/** Adds the loopback features to `--enable-features`, keeping any given already. Call before the app is ready. */
export function enableLoopbackFeatures(commandLine: CommandLineLike): void {
  const given = commandLine.hasSwitch('enable-features') ? commandLine.getSwitchValue('enable-features').split(',').filter(Boolean) : [];
  if (given.length) commandLine.removeSwitch('enable-features');
  commandLine.appendSwitch('enable-features', [...new Set([...given, ...LOOPBACK_FEATURES])].join(','));
}

export class SystemAudioGrant {
  private armedUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The page is about to ask for the system's sound (the person started a meeting). */
  arm(): void {
    this.armedUntil = this.now() + ARM_MS;
  }

  /** Whether an arming waits for its request (the permission checks ask; they do not use it up). */
  armed(): boolean {
    return this.now() <= this.armedUntil;
  }

  /** Whether a request may be granted now; an arming is used up by the request it answers. */
  take(): boolean {
    const armed = this.now() <= this.armedUntil;
    this.armedUntil = 0;
    return armed;
  }

  /** Answers the session's getDisplayMedia requests (refusing all but the armed one from the app's page). */
  install(session: DisplayMediaSessionLike, desktopCapturer: DesktopCapturerLike, log: Log): void {
    session.setDisplayMediaRequestHandler((request, callback) => {
      const ours = originOf(request.securityOrigin) === APP_ORIGIN;
      if (!this.take() || !ours || !request.audioRequested) {
        log.info(`display capture refused (${ours ? 'not armed by a meeting, or no sound asked for' : `from ${request.securityOrigin}`})`);
        callback(REFUSED);
        return;
      }
      desktopCapturer.getSources({ types: ['screen'] }).then(
        (screens) => {
          const screen = screens[0];
          if (!screen) log.info('display capture: no screen to share the sound of');
          callback(screen ? { video: { id: screen.id, name: screen.name }, audio: 'loopback' } : REFUSED);
        },
        (error: unknown) => {
          log.info(`display capture: ${error instanceof Error ? error.message : String(error)}`);
          callback(REFUSED);
        },
      );
    });
  }
}
