/**
 * The `speak_to_file` tool's work: an ordinary text-to-speech job, waited for, and its audio written where the
 * assistant asked — never over an existing file unless it said so, and never half-written (a temporary file renamed
 * into place once complete).
 */
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { ApiClient } from '../../common/api-client.js';
import { isTerminal } from '../../common/job-states.js';

export interface SpeakArgs {
  text: string;
  path: string;
  model: string;
  voice?: string | undefined;
  format: string;
  overwrite: boolean;
}

export async function speakToFile(client: ApiClient, args: SpeakArgs): Promise<{ path: string; bytes: number; jobId: string }> {
  const path = resolve(args.path);
  const folder = await stat(dirname(path)).catch(() => null);
  if (!folder?.isDirectory()) throw new Error(`invalid_params: the folder ${dirname(path)} does not exist`);
  const existing = await stat(path).catch(() => null);
  if (existing && !args.overwrite) throw new Error(`conflict: ${path} exists; pass overwrite: true to replace it`);
  if (existing?.isDirectory()) throw new Error(`invalid_params: ${path} is a folder`);
  const params: Record<string, unknown> = { output_format: args.format, ...(args.voice ? { voice: args.voice } : {}) };
  let job = await client.speak({ model: args.model, text: args.text, params });
  while (!isTerminal(job.status)) {
    await new Promise((done) => setTimeout(done, 300));
    job = await client.getJob('text-to-speech', job.id);
  }
  if (job.status !== 'succeeded') throw new Error(`${job.error_code ?? job.status}: ${job.error_message ?? 'the speech job did not succeed'} (job ${job.id})`);
  const artifact = job.result?.artifacts?.[0];
  if (!artifact) throw new Error(`internal_error: the speech job ${job.id} returned no audio`);
  const response = await client.raw('GET', artifact.url);
  if (!response.ok || !response.body) throw new Error(`internal_error: the audio of job ${job.id} could not be downloaded (HTTP ${response.status})`);
  const partial = `${path}.voxdesk-partial`;
  try {
    await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>), createWriteStream(partial));
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { path, bytes: (await stat(path)).size, jobId: job.id };
}
