/**
 * `voxdesk speak TEXT [--model ID] [--voice V] [--format wav|mp3|pcm|opus|aac|flac] [--out FILE]`: speaks one text and writes the
 * audio to FILE (default ./speech.<format>); the path written is printed on stdout.
 */
import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { openClientSession } from './client-session.js';
import { waitForJob } from './job-progress.js';
import { integerOption } from './options.js';

/** The model `speak` uses without --model: eSpeak NG, always on device. */
export const DEFAULT_SPEAK_MODEL = 'espeak-ng';

interface SpeakOptions {
  model: string;
  voice?: string;
  format?: string;
  out?: string;
  url?: string;
  dataDir?: string;
  workers?: number;
}

export function registerSpeakCommand(program: Command): void {
  program
    .command('speak')
    .description('speak a text and write the audio to a file')
    .argument('<text>', 'the words to speak')
    .option('--model <id>', 'text-to-speech model (GET /v1/models?capability=tts)', DEFAULT_SPEAK_MODEL)
    .option('--voice <voice>', "the model's voice param")
    .option('--format <format>', 'output_format param (wav, mp3, pcm, opus, aac, flac; aac needs ffmpeg)')
    .option('--out <file>', 'where to write the audio (default ./speech.<format>)')
    .option('--url <url>', 'use a running or hosted service (key in VOXDESK_API_KEY) instead of an in-process one')
    .option('--data-dir <dir>', 'data dir of the in-process service')
    .option('--workers <n>', 'engine workers of the in-process service', integerOption(1, 64))
    .action(async (text: string, opts: SpeakOptions) => {
      const session = await openClientSession(opts);
      try {
        const params: Record<string, unknown> = {};
        if (opts.voice) params.voice = opts.voice;
        if (opts.format) params.output_format = opts.format;
        const created = await session.client.speak({ model: opts.model, text, params });
        const job = await waitForJob(session.client, 'text-to-speech', created, 'speaking');
        if (job.status !== 'succeeded') throw new Error(`speech failed: ${job.error_code ?? job.status}: ${job.error_message ?? ''}`);
        const artifact = job.result?.artifacts?.[0];
        if (!artifact) throw new Error('the job succeeded but returned no audio');
        const ext = opts.format ?? (artifact.content_type.includes('mpeg') ? 'mp3' : artifact.content_type.includes('wav') ? 'wav' : 'pcm');
        const out = resolve(opts.out ?? `speech.${ext}`);
        const response = await session.client.raw('GET', artifact.url);
        if (!response.body) throw new Error('the audio download was empty');
        await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>), createWriteStream(out));
        process.stdout.write(`${out}\n`);
      } finally {
        await session.close();
      }
    });
}
