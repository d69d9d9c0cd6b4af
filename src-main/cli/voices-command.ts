/**
 * `voxdesk voices [--model ID]`: the voices a text-to-speech model offers, one per line (`ID  NAME`), read from the
 * catalogue record's params_schema (the `voice` param's values and their `x-labels` names), so a script or a person
 * can pick `voxdesk speak --voice ID`. Names are printed as the catalogue has them (UTF-8: "Māori", "Bokmål").
 */
import type { Command } from 'commander';
import type { CatalogueRecord } from '../common/api-types.js';
import { openClientSession } from './client-session.js';
import { DEFAULT_SPEAK_MODEL } from './speak-command.js';

interface VoicesOptions {
  model: string;
  url?: string;
  dataDir?: string;
}

interface VoiceParam {
  enum?: unknown[];
  'x-labels'?: Record<string, string>;
  minimum?: number;
  maximum?: number;
}

/** `ID  NAME` lines, ids padded to one column; a model without named voices says what it takes instead. */
export function formatVoices(record: CatalogueRecord): string {
  const properties = (record.params_schema.properties ?? {}) as Record<string, VoiceParam>;
  const voice = properties.voice;
  if (!voice?.enum?.length) {
    const speaker = properties.speaker;
    const range = speaker && typeof speaker.minimum === 'number' && typeof speaker.maximum === 'number' ? ` (params.speaker ${speaker.minimum}–${speaker.maximum})` : '';
    return `model ${record.id} has no named voices${range}\n`;
  }
  const ids = voice.enum.map(String);
  const width = Math.max(...ids.map((id) => id.length));
  const names = voice['x-labels'] ?? {};
  return ids.map((id) => `${id.padEnd(width)}  ${names[id] ?? id}`).join('\n') + '\n';
}

export function registerVoicesCommand(program: Command): void {
  program
    .command('voices')
    .description("list a text-to-speech model's voices (for speak --voice)")
    .option('--model <id>', 'text-to-speech model (GET /v1/models?capability=tts)', DEFAULT_SPEAK_MODEL)
    .option('--url <url>', 'use a running or hosted service instead of an in-process one')
    .option('--data-dir <dir>', 'data dir of the in-process service')
    .action(async (opts: VoicesOptions) => {
      const session = await openClientSession({ ...opts, workers: 1 });
      try {
        process.stdout.write(formatVoices(await session.client.getModel(opts.model)));
      } finally {
        await session.close();
      }
    });
}
