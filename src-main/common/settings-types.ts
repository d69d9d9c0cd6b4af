/**
 * The wire shapes of the settings routes a person changes (`/v1/settings/retention`, `/v1/settings/models`,
 * `/v1/settings/remote`): one definition for the service that answers them and the client that reads them.
 */

export interface RetentionPolicy {
  /**
   * Hours an uploaded recording is kept after its job ends: whole hours 1–8760, or null = as long as its job (default:
   * a transcript can play its quotes for as long as it exists; the recording goes with the job, by the history rule).
   */
  recordings_hours: number | null;
  /** Days a finished job (and its batch) stays in the history: whole days 1–3650, or null = forever (default). */
  job_history_days: number | null;
}

/** What GET/PUT /v1/settings/retention answer. */
export interface RetentionSettings extends RetentionPolicy {
  /** How long download links live: fixed by the spec (one day), shown read-only. */
  artifact_link_hours: number;
  /** Bytes the uploaded recordings kept now take on disk (every account's: the route is the local account's). */
  recordings_bytes: number;
}

/** GET/PUT /v1/settings/models: where model downloads come from. `*_from`: setting, environment or null. */
export interface ModelDownloadSettings {
  mirror: string | null;
  mirror_from: 'setting' | 'environment' | 'option' | null;
  ca_file: string | null;
  ca_file_from: 'setting' | 'environment' | 'option' | null;
  /** The service's proxy variables (read only, without credentials). */
  proxy: { https: string | null; http: string | null; no_proxy: string | null };
}

/** GET/PUT /v1/settings/remote: the hosted service this one forwards to (its key is never shown, only whether it is set). */
export interface RemoteSettings {
  url: string | null;
  key_set: boolean;
}
