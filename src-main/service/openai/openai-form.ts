/**
 * The multipart body of /v1/audio/transcriptions and /translations, read the OpenAI way: parts in any order (the
 * SDKs send `file` wherever it falls), arrays as repeated `name[]` parts, an unknown part refused with its name as
 * OpenAI does ("Unrecognized request argument supplied"). The file streams to disk under the service's upload limit
 * (500 MB) and the account's upload budget (uploads at once, bytes kept), like the native routes; the model's own
 * limit is checked once the model is known.
 */
import { ApiError } from '../../common/errors.js';
import type { ModelDefinition } from '../../engines/model-definition.js';
import type { AppDeps } from '../app-deps.js';
import type { UploadedFile } from '../uploads/multipart.js';

export interface OpenAiForm {
  /** Text parts by name (`name[]` stored under `name`), in arrival order. */
  fields: Map<string, string[]>;
  file: UploadedFile;
  /** Deletes the upload (on a rejection, or a replayed Idempotency-Key). */
  discard(): Promise<void>;
}

export async function readOpenAiForm(request: Request, deps: AppDeps, accountId: string, allowed: readonly string[]): Promise<OpenAiForm> {
  const fields = new Map<string, string[]>();
  const { files, discard } = await deps.uploads.receive(accountId, request, {
    onField(name, value) {
      const key = name.endsWith('[]') ? name.slice(0, -2) : name;
      if (!allowed.includes(key) || key === 'file') {
        throw new ApiError('unsupported_param', `Unrecognized request argument supplied: ${key}`, { param: key });
      }
      fields.set(key, [...(fields.get(key) ?? []), value]);
    },
    beforeFile(field, _name, index) {
      if (field !== 'file') throw new ApiError('unsupported_param', `Unrecognized request argument supplied: ${field} (the audio goes in the file part)`, { param: field });
      if (index > 0) throw new ApiError('invalid_request', 'send one file part', { param: 'file' });
      return { maxBytes: deps.config.maxUploadBytes };
    },
  });
  const file = files[0];
  if (!file || file.bytes === 0) {
    await discard();
    throw new ApiError('file_required', file ? `the file part "${file.originalName}" is empty` : 'you must provide a file: the audio to transcribe', { param: 'file' });
  }
  return { fields, file, discard };
}

/** One text field: absent → undefined; sent twice → 400. */
export function single(form: OpenAiForm, name: string): string | undefined {
  const values = form.fields.get(name);
  if (!values) return undefined;
  if (values.length > 1) throw new ApiError('invalid_request', `${name} was sent ${values.length} times`, { param: name });
  return values[0];
}

/** The model's own file limit, checked after the upload (the model part may have come after the file). */
export function checkFileLimit(form: OpenAiForm, deps: AppDeps, def: ModelDefinition): void {
  const max = deps.catalogue.limitsFor(def).max_file_bytes;
  if (max !== null && form.file.bytes > max) {
    throw new ApiError('file_too_large', `${form.file.originalName || 'the file'} has ${form.file.bytes} bytes; model ${def.id} takes at most ${max}`, { param: 'file' });
  }
}
