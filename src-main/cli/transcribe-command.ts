/**
 * `voxdesk transcribe FILE... [--model ID] [--format txt|srt|vtt|json|docx] [--out DIR] [--diarize] [--speakers N |
 * --min-speakers N --max-speakers N]`: transcribes files as
 * batches of up to 50, then prints each transcript on stdout (one after another, each headed by `==> FILE <==` when
 * there are several) or writes DIR/<file name>.<format>. Each file is the service's export
 * (`GET /v1/speech-to-text/{id}/export`), so it is laid out exactly as the app's and the watch folders' are; docx is
 * binary and so needs --out. Exit code 1 when any file failed.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { openAsBlob, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import type { ApiClient } from '../common/api-client.js';
import { MAX_BATCH_ITEMS, MAX_DIARIZATION_SPEAKERS } from '../common/limits.js';
import { TRANSCRIPT_FORMATS as FORMATS, type TranscriptFormat } from '../common/transcript-formats.js';
import { openClientSession } from './client-session.js';
import { waitForBatch } from './job-progress.js';
import { integerOption } from './options.js';
import { tell } from './output.js';

/** Files per batch request (the spec's limit). */
export const FILES_PER_BATCH = MAX_BATCH_ITEMS;

interface TranscribeOptions {
  model?: string;
  format: TranscriptFormat;
  out?: string;
  language?: string;
  url?: string;
  dataDir?: string;
  workers?: number;
  diarize?: boolean;
  speakers?: number;
  minSpeakers?: number;
  maxSpeakers?: number;
}

/**
 * The params of the options: --language, and speakers (docs/speakers.md) — --diarize, or a speaker count, which
 * implies it. The service checks the combinations (num_speakers with a bound, min above max: 400 invalid_params).
 */
export function transcribeParams(opts: TranscribeOptions): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (opts.language) params.language = opts.language;
  const count = { num_speakers: opts.speakers, min_speakers: opts.minSpeakers, max_speakers: opts.maxSpeakers };
  const given = Object.entries(count).filter(([, n]) => n !== undefined);
  if (opts.diarize || given.length > 0) params.speaker_diarization = true;
  for (const [name, n] of given) params[name] = n;
  return params;
}

async function defaultAsrModel(client: ApiClient): Promise<string> {
  const models = await client.listModels({ capability: 'asr' });
  const local = models.find((m) => m.provider === 'local') ?? models[0];
  if (!local) throw new Error('no speech-to-text model is available (see voxdesk models list)');
  return local.id;
}

export function registerTranscribeCommand(program: Command): void {
  program
    .command('transcribe')
    .description('transcribe audio files')
    .argument('<files...>', 'audio or video files')
    .option('--model <id>', 'speech-to-text model (default: the first available on-device one)')
    .option('--format <format>', `${FORMATS.join(', ')} (docx needs --out)`, (v: string) => {
      if (!(FORMATS as readonly string[]).includes(v)) throw new InvalidArgumentError(`expected one of ${FORMATS.join(', ')}`);
      return v as TranscriptFormat;
    }, 'txt')
    .option('--language <code>', 'language param of the model')
    .option('--diarize', 'label speakers (needs the speaker models); speakers in your speaker library are named')
    .option('--speakers <n>', 'exactly this many speakers (implies --diarize)', integerOption(1, MAX_DIARIZATION_SPEAKERS))
    .option('--min-speakers <n>', 'at least this many speakers (implies --diarize)', integerOption(1, MAX_DIARIZATION_SPEAKERS))
    .option('--max-speakers <n>', 'at most this many speakers (implies --diarize)', integerOption(1, MAX_DIARIZATION_SPEAKERS))
    .option('--out <dir>', 'write <file>.<format> files into this directory instead of stdout')
    .option('--url <url>', 'use a running or hosted service (key in VOXDESK_API_KEY) instead of an in-process one')
    .option('--data-dir <dir>', 'data dir of the in-process service')
    .option('--workers <n>', 'engine workers of the in-process service', integerOption(1, 64))
    .action(async (files: string[], opts: TranscribeOptions) => {
      if (opts.format === 'docx' && !opts.out) throw new Error('--format docx writes Word files: give --out DIR to write them into');
      for (const f of files) {
        const stat = statSync(f, { throwIfNoEntry: false });
        if (!stat) throw new Error(`${f}: no such file`);
        if (!stat.isFile()) throw new Error(`${f}: not a file`);
      }
      const session = await openClientSession(opts);
      let failures = 0;
      try {
        const client = session.client;
        const model = opts.model ?? (await defaultAsrModel(client));
        const params = transcribeParams(opts);
        if (opts.out) await mkdir(resolve(opts.out), { recursive: true });
        for (let start = 0; start < files.length; start += FILES_PER_BATCH) {
          const chunk = files.slice(start, start + FILES_PER_BATCH);
          const uploads = await Promise.all(chunk.map(async (f) => ({ file: await openAsBlob(resolve(f)), filename: basename(f) })));
          const created = await client.transcribeBatch(uploads, { model, params });
          const batch = await waitForBatch(client, 'speech-to-text', created, `transcribing ${chunk.length} file(s)`);
          for (const [i, item] of batch.files.entries()) {
            const source = chunk[i]!;
            if (item.status !== 'succeeded' || !item.job_id) {
              failures++;
              tell(`${source}: ${item.error_code ?? item.status}: ${item.error_message ?? ''}`);
              continue;
            }
            const file = new Uint8Array(await (await client.exportTranscript(item.job_id, opts.format)).arrayBuffer());
            if (opts.out) {
              const target = join(resolve(opts.out), `${basename(source, extname(source))}.${opts.format}`);
              await writeFile(target, file);
              tell(`${source} → ${target}`);
            } else {
              const text = new TextDecoder().decode(file);
              if (files.length > 1) process.stdout.write(`==> ${source} <==\n`);
              process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
            }
          }
        }
      } finally {
        await session.close();
      }
      if (failures) process.exitCode = 1;
    });
}
