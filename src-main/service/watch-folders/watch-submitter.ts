/**
 * The watcher's way into the API: a file becomes a job through the same checks and the same job creation as
 * `POST /v1/speech-to-text` (model resolved for the product, params validated against its schema, the model's file
 * limit, the job engine's intake with its ledger), for the local account. The recording is transcribed where it is:
 * it is not copied into uploads/, so retention never deletes it and it does not count against the upload quota. It
 * is priced like an upload too: at the length its container states, recorded on the job (the spending cap's quote).
 * Its exports are the export route's: the latest revision with the speakers' names, rendered by
 * common/transcript-export.ts (a transcript edited before the job's files are written shows the edit).
 */
import type { Job } from '../../common/api-types.js';
import { ApiError } from '../../common/errors.js';
import { exportTitle } from '../../common/transcript-export.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../common/transcript-formats.js';
import type { WatchFolderConfig } from '../../watch/watch-folder-config.js';
import type { WatchSubmitter } from '../../watch/watch-service.js';
import type { AppDeps } from '../app-deps.js';
import { audioSeconds, requestedLanguage, resolveForProduct, validateParams } from '../routes/submission.js';

export function createWatchSubmitter(deps: Pick<AppDeps, 'catalogue' | 'validator' | 'jobs' | 'config' | 'transcripts' | 'exports'>, accountId: string): WatchSubmitter {
  const resolve = (folder: WatchFolderConfig) => {
    const def = resolveForProduct(deps, folder.model, 'speech-to-text');
    return { def, params: validateParams(deps, def, folder.params) };
  };
  return {
    check(folder) {
      const { def } = resolve(folder);
      return { maxFileBytes: deps.catalogue.limitsFor(def).max_file_bytes ?? deps.config.maxUploadBytes };
    },
    async pricedSeconds(folder, path) {
      const { def, params } = resolve(folder);
      const [seconds] = await audioSeconds(deps, def, params, [path]);
      return seconds ?? null;
    },
    async submit(folder, file, along): Promise<Job | null> {
      const { def, params } = resolve(folder);
      const max = deps.catalogue.limitsFor(def).max_file_bytes ?? deps.config.maxUploadBytes;
      if (file.bytes > max) throw new ApiError('file_too_large', `${file.name} is ${file.bytes} bytes; model ${def.id} takes files of at most ${max} bytes`);
      const job = {
        accountId,
        product: 'speech-to-text' as const,
        modelId: def.id,
        name: file.name,
        language: requestedLanguage(folder.params),
        params,
        input: { filePath: file.path, fileName: file.name, fileRoot: folder.path },
        estimatedSeconds: file.seconds,
      };
      return deps.jobs.createJobAlong(job, along);
    },
    async render(job, format) {
      if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) throw new Error(`no export format ${format}`);
      const { name, parts } = await deps.transcripts.forExport(accountId, job.id);
      const file = await deps.exports.render(accountId, { parts, format: format as TranscriptFormat, title: exportTitle(name, job.id) });
      return file.bytes;
    },
  };
}
