/**
 * Voxdesk's abilities for AI assistants over the Model Context Protocol (issue 31, docs/mcp.md), built with the
 * official TypeScript SDK. Every tool goes through the public API with the assistant's key, like any other client
 * (`ApiClient`), so each call is an ordinary job: priced, capped, owned by that account, visible in Jobs, and another
 * account's jobs answer `not_found`. Tool failures come back as tool errors (`isError`) naming the API's code and
 * message, so the assistant can say what went wrong; bad arguments are refused by the SDK before anything is created.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ApiClientError, type ApiClient } from '../../common/api-client.js';
import type { Capability } from '../../common/products.js';
import { CAPABILITIES } from '../../common/products.js';
import { speakToFile } from './mcp-speak.js';
import { transcribeFile, type Progress } from './mcp-transcribe.js';
import { formatTime, formatTranscript, segmentsBetween } from './mcp-transcript-text.js';

export const MCP_SERVER_NAME = 'voxdesk';

/** What a tool answers: the text an assistant reads, and the same facts as JSON for those that read that. */
function answer(text: string, structured: Record<string, unknown>): { content: { type: 'text'; text: string }[]; structuredContent: Record<string, unknown> } {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A failure of the API as the tool error an assistant reads: `code: message`. */
async function toolCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiClientError) throw new Error(`${error.code}: ${error.message}`, { cause: error });
    throw error;
  }
}

export interface McpServerOptions {
  /**
   * Offer the tools that read or write files of the machine the server runs on (transcribe_file, speak_to_file).
   * True for `voxdesk mcp` (the person's own machine); over HTTP, for the local account only (mcp-route.ts).
   */
  fileTools: boolean;
}

export function createMcpServer(client: ApiClient, version: string, options: McpServerOptions = { fileTools: true }): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { capabilities: { logging: {} } });
  if (options.fileTools) registerFileTools(server, client);
  registerLibraryTools(server, client);
  return server;
}

/** transcribe_file and speak_to_file: a path of this machine in, or out. */
function registerFileTools(server: McpServer, client: ApiClient): void {
  server.registerTool(
    'transcribe_file',
    {
      title: 'Transcribe an audio or video file',
      description:
        'Transcribes a file on this computer with Voxdesk (on device unless the model is hosted). Waits for the transcript ' +
        'and reports progress; with wait=false answers at once with the job id (see job_status and get_transcript).',
      inputSchema: {
        path: z.string().min(1).describe('Path of the audio or video file (absolute, or relative to where Voxdesk runs)'),
        model: z.string().min(1).optional().describe('Speech-to-text model id (list_models); default: the first on-device one'),
        language: z.string().min(2).max(16).optional().describe('Language code of the speech, e.g. "en", when the model takes one'),
        wait: z.boolean().default(true).describe('Wait for the transcript (default) or answer with the job id at once'),
      },
    },
    async (args, extra) =>
      toolCall(async () => {
        const token = extra._meta?.progressToken;
        const progress: Progress | undefined =
          token === undefined
            ? undefined
            : (fraction, message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: Math.round(fraction * 100), total: 100, message } });
        const job = await transcribeFile(client, args, extra.signal, progress);
        if (job.status !== 'succeeded') {
          const text = job.status === 'queued' || job.status === 'running' ? `Job ${job.id} is ${job.status}.` : `Job ${job.id} ${job.status}: ${job.error_code ?? ''} ${job.error_message ?? ''}`.trim();
          return answer(text, { job_id: job.id, status: job.status, error_code: job.error_code, text: null });
        }
        const transcript = job.result?.text ?? '';
        return answer(`${transcript}\n\n(job ${job.id})`, { job_id: job.id, status: job.status, text: transcript, duration_seconds: job.duration_seconds === null ? null : Number(job.duration_seconds) });
      }),
  );

  server.registerTool(
    'speak_to_file',
    {
      title: 'Speak text into an audio file',
      description: 'Speaks a text with a Voxdesk voice and writes the audio to a file on this computer.',
      inputSchema: {
        text: z.string().min(1).max(20_000).describe('The words to speak'),
        path: z.string().min(1).describe('Where to write the audio (an existing file is kept unless overwrite is true)'),
        model: z.string().min(1).default('espeak-ng').describe('Text-to-speech model id (list_models with capability tts)'),
        voice: z.string().min(1).optional().describe("The model's voice"),
        format: z.enum(['wav', 'mp3', 'flac', 'opus', 'pcm']).default('wav').describe('Audio format'),
        overwrite: z.boolean().default(false),
      },
    },
    async (args) =>
      toolCall(async () => {
        const written = await speakToFile(client, args);
        return answer(`Wrote ${written.path} (${written.bytes} bytes, job ${written.jobId}).`, { path: written.path, bytes: written.bytes, job_id: written.jobId });
      }),
  );
}

/** What needs no file of this machine: transcripts, search, models, jobs, usage, and the transcripts resource. */
function registerLibraryTools(server: McpServer, client: ApiClient): void {
  server.registerTool(
    'get_transcript',
    {
      title: 'Get a transcript',
      description: 'The latest revision of a finished transcription (edits included): its segments with times and speakers, optionally only a time range.',
      inputSchema: {
        job_id: z.string().min(1).describe('The transcription job id'),
        start: z.number().min(0).optional().describe('Only segments ending after this time (seconds)'),
        end: z.number().min(0).optional().describe('Only segments starting before this time (seconds)'),
      },
    },
    async ({ job_id, start, end }) =>
      toolCall(async () => {
        if (start !== undefined && end !== undefined && end <= start) throw new Error('invalid_params: end must be after start');
        const revision = await client.getTranscript(job_id);
        const segments = segmentsBetween(revision.segments, start, end);
        const speakers = revision.speakers;
        return answer(formatTranscript(segments, speakers) || '(no speech in that range)', {
          job_id,
          revision: revision.revision,
          segments: segments.map((s) => ({ index: s.index, start: s.start, end: s.end, speaker: s.speaker ? (speakers[s.speaker] ?? s.speaker) : null, text: s.text })),
        });
      }),
  );

  server.registerTool(
    'search_transcripts',
    {
      title: 'Search the transcripts',
      description: 'Finds where words were said across every transcript, and in the AI answers (summaries, chapters, translations…) made of them: plain words, "a quoted phrase", or a prefix*. Best matches first, with times.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for'),
        limit: z.number().int().min(1).max(50).default(10).describe('Most hits to return'),
      },
    },
    async ({ query, limit }) =>
      toolCall(async () => {
        const page = await client.search(query, limit);
        const lines = page.data.map((hit) => {
          // A hit in a language-model action's answer (a summary, chapters, …) says which action wrote it.
          const where = hit.ai ? `[AI ${hit.ai.action} ${hit.ai.job_id}]` : hit.start === null ? '[name]' : `[${formatTime(hit.start)}]`;
          return `${hit.name ?? hit.job_id} (${hit.job_id}) ${where}: ${hit.snippet}`;
        });
        return answer(lines.join('\n') || `No transcript says "${query}".`, { hits: page.data });
      }),
  );

  server.registerTool(
    'list_models',
    {
      title: 'List models and voices',
      description: 'The models this Voxdesk can use now, with their languages, prices and (for speech) voices.',
      inputSchema: { capability: z.enum(CAPABILITIES as unknown as [Capability, ...Capability[]]).optional().describe('Only models of this kind (asr, tts, …)') },
    },
    async ({ capability }) =>
      toolCall(async () => {
        const models = await client.listModels(capability ? { capability } : {});
        const lines = models.map((m) => `${m.id} (${m.capability}, ${m.provider}): ${m.name}; languages ${m.languages.slice(0, 12).join(', ')}${m.languages.length > 12 ? '…' : ''}`);
        return answer(lines.join('\n') || 'No model is available.', { models: models.map((m) => ({ id: m.id, name: m.name, capability: m.capability, provider: m.provider, languages: m.languages })) });
      }),
  );

  server.registerTool(
    'job_status',
    {
      title: 'Job status',
      description: 'Where a Voxdesk job is: queued, running (with progress), succeeded, failed, cancelled or expired.',
      inputSchema: {
        job_id: z.string().min(1),
        product: z.enum(['speech-to-text', 'text-to-speech']).default('speech-to-text'),
      },
    },
    async ({ job_id, product }) =>
      toolCall(async () => {
        const job = await client.getJob(product, job_id);
        const progress = job.progress === null ? '' : ` (${Math.round(job.progress * 100)} %)`;
        const problem = job.error_code ? `: ${job.error_code} ${job.error_message ?? ''}`.trimEnd() : '';
        return answer(`${job.name ?? job.id} is ${job.status}${progress}${problem}.`, { job_id: job.id, name: job.name, status: job.status, progress: job.progress, error_code: job.error_code, error_message: job.error_message });
      }),
  );

  server.registerTool(
    'usage_this_month',
    { title: 'Usage this month', description: 'What this key has been charged this month, on device and hosted, in US dollars.', inputSchema: {} },
    async () =>
      toolCall(async () => {
        const usage = await client.usage({});
        return answer(`Charged ${usage.total_usd.toFixed(2)} USD from ${usage.from.slice(0, 10)} (on device ${usage.on_device.total_usd.toFixed(2)}, hosted ${usage.hosted.total_usd.toFixed(2)}).`, {
          total_usd: usage.total_usd,
          on_device_usd: usage.on_device.total_usd,
          hosted_usd: usage.hosted.total_usd,
          from: usage.from,
          to: usage.to,
        });
      }),
  );

  server.registerResource(
    'transcript',
    new ResourceTemplate('voxdesk://transcripts/{job_id}', {
      list: async () => {
        const recent = await client.listJobs({ product: 'speech-to-text', status: 'succeeded', limit: 20 });
        return { resources: recent.data.map((job) => ({ uri: `voxdesk://transcripts/${job.id}`, name: job.name ?? job.id, mimeType: 'text/plain' })) };
      },
    }),
    { title: 'Recent transcripts', description: 'The latest revision of each recent transcript, as text with times and speakers', mimeType: 'text/plain' },
    async (uri, variables) =>
      toolCall(async () => {
        const jobId = String(variables.job_id);
        const revision = await client.getTranscript(jobId);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: formatTranscript(revision.segments, revision.speakers) }] };
      }),
  );
}
