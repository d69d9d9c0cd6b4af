/**
 * One model package's download as a person follows it (the welcome screen's recognizer, the Dictate panel's Silero
 * VAD): start it (POST /v1/local/models/{id}/download), then its progress read every half second from GET
 * /v1/local/models until it is installed or fails, with the reason when it fails. The service's downloader resumes a
 * dropped connection by itself, and a download interrupted by a restart continues when it is started again: `start`
 * on a package with bytes already downloaded is a resume. A page opened while the package downloads follows it too
 * (`follow`).
 */
import type { LocalModel } from '$common/api-client.js';
import { describeError, errorText } from '../shared/error-messages.js';
import type { ServiceHost } from '../shared/service/service-host.js';

/** `interrupted`: bytes were downloaded, then the service stopped (a quit, a crash); `start` resumes it. */
export type DownloadPhase = 'idle' | 'starting' | 'downloading' | 'installing' | 'interrupted' | 'installed' | 'failed';

/** How often the progress is read while a download runs. Default 500 ms. */
const POLL_MS = 500;
/** Reads after the start that may still show the package idle before it counts as not started. Default 60 (30 s). */
const MAX_IDLE_READS = 60;

export class ModelDownload {
  phase = $state<DownloadPhase>('idle');
  /** 0..1 while the size is known, else null. */
  progress = $state<number | null>(null);
  downloadedBytes = $state(0);
  sizeBytes = $state<number | null>(null);
  /** Why it failed (the package's error code and message, or what the request threw). */
  #failure = $state.raw<unknown>(null);
  #timer: ReturnType<typeof setTimeout> | undefined;
  #disposed = false;

  constructor(
    private readonly host: Pick<ServiceHost, 'api'>,
    readonly packageId: string,
    /** Told once the package is installed (the catalogue has a new available model). */
    private readonly onInstalled: () => void | Promise<void> = () => undefined,
  ) {}

  /** The failure in plain words, in the interface's language; null unless it failed. */
  get error(): string | null {
    if (this.phase !== 'failed' || !this.#failure) return null;
    const f = this.#failure as { code?: unknown; message?: unknown };
    return typeof f.code === 'string' && !(f instanceof Error) ? describeError(f.code, typeof f.message === 'string' ? f.message : null) : errorText(this.#failure);
  }

  /** The failure's code (download_failed, checksum_mismatch, network_error …), null unless it failed. */
  get errorCode(): string | null {
    const f = this.#failure as { code?: unknown } | null;
    return this.phase === 'failed' && typeof f?.code === 'string' ? f.code : null;
  }

  /** True when it failed before a byte arrived (the network or the source could not be reached). */
  get couldNotStart(): boolean {
    return this.phase === 'failed' && this.downloadedBytes === 0;
  }

  /** Starts (or resumes) the download and follows it; resolves when it is installed (true) or failed (false). */
  async start(): Promise<boolean> {
    this.#failure = null;
    this.phase = 'starting';
    try {
      await this.host.api.downloadModel(this.packageId);
    } catch (err) {
      this.#failure = err;
      this.phase = 'failed';
      return false;
    }
    return this.#follow();
  }

  /** Reads the package's state once; keeps following it when a download is under way (a page opened meanwhile). */
  async follow(): Promise<boolean> {
    return this.#follow();
  }

  /** Cancels the download (its partial files go). */
  async cancel(): Promise<void> {
    clearTimeout(this.#timer);
    await this.host.api.cancelDownload(this.packageId).catch(() => undefined);
    this.phase = 'idle';
    this.progress = null;
  }

  /** Stops following (the component is gone); the download itself goes on in the service. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }

  async #follow(): Promise<boolean> {
    for (let idleReads = 0; ; ) {
      if (this.#disposed) return false;
      let pkg: LocalModel | undefined;
      try {
        pkg = (await this.host.api.localModels()).find((m) => m.id === this.packageId);
      } catch (err) {
        this.#failure = err;
        this.phase = 'failed';
        return false;
      }
      if (pkg) this.#read(pkg);
      if (!pkg || this.phase === 'installed' || this.phase === 'failed') {
        if (this.phase === 'installed') await this.onInstalled();
        return this.phase === 'installed';
      }
      if (this.phase === 'idle' || this.phase === 'interrupted') return false;
      if (this.phase === 'starting' && ++idleReads > MAX_IDLE_READS) {
        this.#failure = { code: 'download_failed', message: null };
        this.phase = 'failed';
        return false;
      }
      await new Promise<void>((resolve) => (this.#timer = setTimeout(resolve, POLL_MS)));
    }
  }

  #read(pkg: LocalModel): void {
    this.sizeBytes = pkg.size_bytes ?? null;
    this.downloadedBytes = pkg.downloaded_bytes ?? 0;
    this.progress = typeof pkg.progress === 'number' ? pkg.progress : pkg.downloaded_bytes && pkg.size_bytes ? pkg.downloaded_bytes / pkg.size_bytes : null;
    if (pkg.state === 'installed' || pkg.state === 'imported' || pkg.installed === true) this.phase = 'installed';
    else if (pkg.state === 'failed') {
      this.phase = 'failed';
      this.#failure = { code: typeof pkg.error_code === 'string' ? pkg.error_code : 'download_failed', message: pkg.error_message ?? null };
    } else if (pkg.state === 'downloading') this.phase = 'downloading';
    else if (pkg.state === 'installing') this.phase = 'installing';
    else if (this.phase !== 'starting') this.phase = this.downloadedBytes > 0 ? 'interrupted' : 'idle';
  }
}
