/** Runs `voxdesk models …` from registerModelsCommand alone (the CLI engineer wires it into main.ts). */
import { Command, CommanderError } from 'commander';
import { registerModelsCommand } from '../../../src-main/cli/models-command.js';

const program = new Command('voxdesk').exitOverride();
registerModelsCommand(program);
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  process.stderr.write(`voxdesk: ${(error as Error).message}\n`);
  process.exit(1);
}
