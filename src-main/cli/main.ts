/** The `voxdesk` command (bin/voxdesk.js loads this file). Errors print one line on stderr and exit 1. */
import { Command, CommanderError } from 'commander';
import { VOXDESK_VERSION as VERSION } from '../common/version.js';
import { registerCaptureCommand } from './capture-command.js';
import { registerDbCommand } from './db-command.js';
import { registerKeysCommand } from './keys-command.js';
import { registerMcpCommand } from './mcp-command.js';
import { registerModelsCommand } from './models-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerSpeakCommand } from './speak-command.js';
import { registerTranscribeCommand } from './transcribe-command.js';
import { registerVoicesCommand } from './voices-command.js';
import { registerWorkerCommand } from './worker-command.js';
import { tell } from './output.js';

export function buildProgram(): Command {
  const program = new Command('voxdesk')
    .description('Voxdesk: on-device transcription and speech, as a desktop app or an HTTP service')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerWorkerCommand(program);
  registerDbCommand(program);
  registerKeysCommand(program);
  registerSpeakCommand(program);
  registerVoicesCommand(program);
  registerTranscribeCommand(program);
  registerModelsCommand(program);
  registerMcpCommand(program, VERSION);
  registerCaptureCommand(program);
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  tell(`voxdesk: ${(error as Error).message}`);
  process.exit(1);
}
