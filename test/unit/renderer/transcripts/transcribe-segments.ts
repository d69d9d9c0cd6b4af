/** For the transcript tests: a finished transcription of `count` segments ("segment 0" …), named `name`. */
import type { AppState } from '../../../../src-renderer/src/shared/service/app-state.svelte.js';
import { until } from '../../../helpers/renderer-host.js';

export async function transcribeSegments(app: AppState, name: string, count = 3): Promise<string> {
  const job = await app.api.transcribe(
    { file: new File([new Uint8Array(2000).fill(7)], name, { type: 'audio/wav' }), filename: name },
    { model: 'test-asr', params: { behaviour: 'segments', count, ms: 0 } },
  );
  await until(() => app.jobById(job.id)?.status === 'succeeded', `${name} to finish`);
  return job.id;
}
