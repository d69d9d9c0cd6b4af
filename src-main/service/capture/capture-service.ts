/**
 * Meeting capture for the service (docs/capture.md): starts and stops captures, lists them, finds the sources, and at
 * start saves captures an earlier run left unfinished (capture-recovery.ts). One capture runs at a time: the machine
 * has one microphone and one output to record. It builds on live dictation — the model is checked and warmed as a
 * dictation's, its two streams take two of the account's dictation session slots and run in the same recognizer
 * pool, the recording is kept in the account's dictations folder and counted in its upload quota, and the capture
 * becomes a job through JobService.recordDictation (billed like a file of its length). Capturing is the local
 * account's alone: the routes and the socket answer 404 to other accounts (auth/local-account-only.ts).
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Job } from '../../common/api-types.js';
import type { Capture, CaptureRequest, CaptureSide, CaptureSources } from '../../common/capture-protocol.js';
import { ApiError } from '../../common/errors.js';
import { CAPTURE_SAMPLE_RATE } from '../../engines/capture/capture-types.js';
import type { NewDictationJob } from '../../jobs/engine/job-service-types.js';
import { ensurePrivateDir } from '../../store/private-files.js';
import { DICTATIONS_FOLDER, type LiveRecognizer } from '../live/dictation-route.js';
import type { UploadTicket } from '../uploads/upload-budget.js';
import { type CaptureManifest } from './capture-journal.js';
import { DEFAULT_CAPTURE_OPTIONS, type CaptureOptions } from './capture-options.js';
import { findLeftCaptures, recoverCaptures, type RecoveredCapture } from './capture-recovery.js';
import { NO_SPEAKER_MODELS, type CaptureSpeakerDeps } from './capture-speakers.js';
import { CaptureSession } from './capture-session.js';
import { captureSources, DEFAULT_DEVICE, openSources } from './capture-sources.js';
import type { Log } from '../../common/log.js';

export interface CaptureDeps {
  /** The live server's part (live/live-server.ts): a warm recognizer, and dictation session slots. */
  liveRecognizer(modelId: string): Promise<LiveRecognizer>;
  takeDictationSlot(accountId: string): { release: () => void } | { refused: string };
  uploadsDir: string;
  openQuota(accountId: string): Promise<UploadTicket>;
  /** JobService.recordDictation. */
  recordJob(input: NewDictationJob): Job | Promise<Job>;
  durable?(): Promise<void>;
  log: Log;
  options?: Partial<CaptureOptions>;
  /** Telling the other side's speakers apart (capture-speakers.ts); without it the other side is one speaker. */
  speakers?: CaptureSpeakerDeps;
}

/** How many ended captures GET /v1/captures keeps listing (their jobs stay in Jobs). Default 20. */
export const KEPT_ENDED_CAPTURES = 20;

export class CaptureService {
  readonly options: CaptureOptions;
  /** `changed` (a capture started, changed state or ended): the desktop shows when one runs. */
  readonly events = new EventEmitter();
  private readonly captures = new Map<string, CaptureSession>();
  private closing = false;
  private readonly shutdown = new AbortController();
  private recovering: Promise<RecoveredCapture[]> = Promise.resolve([]);

  constructor(private readonly deps: CaptureDeps) {
    this.options = { ...DEFAULT_CAPTURE_OPTIONS, ...deps.options };
  }

  sources(): Promise<CaptureSources> {
    return captureSources(this.options);
  }

  /** The running capture, if any. */
  running(): CaptureSession | undefined {
    return [...this.captures.values()].find((c) => c.view().status === 'recording' || c.view().status === 'stopping');
  }

  async start(accountId: string, request: CaptureRequest): Promise<Capture> {
    if (this.closing) throw new ApiError('internal_error', 'the service is shutting down');
    const running = this.running();
    if (running) throw new ApiError('conflict', `a capture is already running (${running.id}): stop it first (POST /v1/captures/${running.id}/stop)`);
    const recognizer = await this.deps.liveRecognizer(request.model);
    const language = this.checkLanguage(recognizer, request.language);
    const wanted: Record<CaptureSide, string> = {
      microphone: request.microphone ?? (this.options.platform === 'linux' ? DEFAULT_DEVICE : 'client'),
      system: request.system ?? (this.options.platform === 'linux' ? DEFAULT_DEVICE : 'client'),
    };
    const slots = [this.deps.takeDictationSlot(accountId), this.deps.takeDictationSlot(accountId)];
    const release = (): void => slots.forEach((s) => 'release' in s && s.release());
    const refused = slots.find((s): s is { refused: string } => 'refused' in s);
    if (refused) {
      release();
      throw new ApiError('too_many_sessions', `a capture takes two live sessions (one per side): ${refused.refused}`);
    }
    try {
      const { sources, devices } = await openSources(wanted, this.options);
      if (this.running()) throw new ApiError('conflict', 'another capture started meanwhile: stop it first');
      const dir = join(this.deps.uploadsDir, accountId, DICTATIONS_FOLDER);
      ensurePrivateDir(join(this.deps.uploadsDir, accountId));
      ensurePrivateDir(dir);
      const manifest: CaptureManifest = {
        id: `cap_${randomBytes(12).toString('base64url')}`,
        accountId,
        modelId: recognizer.model.id,
        language,
        createdAt: new Date().toISOString(),
        sampleRate: CAPTURE_SAMPLE_RATE,
        devices,
      };
      const session = new CaptureSession({
        manifest,
        dir,
        recognizer,
        sources,
        options: this.options,
        openQuota: () => this.deps.openQuota(accountId),
        recordJob: (input) => this.deps.recordJob(input),
        ...(this.deps.durable ? { durable: this.deps.durable } : {}),
        release,
        log: this.deps.log,
        ...(this.deps.speakers ? { speakers: this.deps.speakers } : {}),
      });
      this.captures.set(session.id, session);
      session.events.on('message', (message: { type: string }) => message.type === 'capture.state' && this.events.emit('changed'));
      session.events.once('done', () => this.forgetOld());
      this.events.emit('changed');
      return session.view();
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The account's capture (404 for an unknown id). */
  session(accountId: string, id: string): CaptureSession {
    const session = this.captures.get(id);
    if (!session || session.accountId !== accountId) throw new ApiError('not_found', `no capture ${id}`);
    return session;
  }

  /** POST /v1/captures/{id}/stop: answers when saved, or once the other side is being diarized (stopAnswer). */
  async stop(accountId: string, id: string): Promise<Capture> {
    return this.session(accountId, id).stopAnswer();
  }

  list(accountId: string): Capture[] {
    return [...this.captures.values()].filter((c) => c.accountId === accountId).map((c) => c.view()).reverse();
  }

  /**
   * Saves the captures an earlier run left unfinished: found now (call it at service start, before any new capture can
   * begin) and saved in the background, because diarizing a long meeting's other side takes minutes and the service
   * need not wait for it to answer; a shutdown meanwhile leaves what is not saved yet to the next start.
   */
  recover(): Promise<RecoveredCapture[]> {
    const left = findLeftCaptures(this.deps.uploadsDir);
    this.recovering = recoverCaptures(left, (input) => this.deps.recordJob(input), this.deps.log, this.deps.speakers ?? NO_SPEAKER_MODELS, this.shutdown.signal).then(
      (found) => {
        for (const r of found) this.deps.log.info(`capture ${r.captureId} left by an earlier run was saved${r.job ? ` as job ${r.job.id}` : ' (it had no audio)'}`);
        return found;
      },
      (error: unknown) => {
        this.deps.log.error(`captures left by an earlier run could not be saved: ${(error as Error).message}`);
        return [];
      },
    );
    return this.recovering;
  }

  /**
   * Service shutdown: running captures end as if stopped (their jobs are recorded), except that diarizing their other
   * side, or a left capture's, is left to the next start rather than holding the shutdown.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.shutdown.abort();
    await Promise.all([...this.captures.values()].map((c) => c.stopForShutdown().catch(() => undefined)));
    await this.recovering;
  }

  private checkLanguage(recognizer: LiveRecognizer, language: string | undefined): string | null {
    if (language === undefined || language === 'auto') return null;
    const schema = (recognizer.model.paramsSchema.properties as Record<string, { enum?: unknown[] }> | undefined)?.language;
    const allowed = Array.isArray(schema?.enum) ? schema.enum.map(String) : [];
    if (!allowed.includes(language)) {
      throw new ApiError(allowed.length ? 'invalid_params' : 'unsupported_param', allowed.length ? `language must be one of ${allowed.join(', ')} for model ${recognizer.model.id}` : `model ${recognizer.model.id} takes no language`);
    }
    return language;
  }

  private forgetOld(): void {
    const ended = [...this.captures.values()].filter((c) => !c.isRunning() && c.view().status !== 'stopping');
    for (const old of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED_CAPTURES))) this.captures.delete(old.id);
  }
}
