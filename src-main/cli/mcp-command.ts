/**
 * `voxdesk mcp [--url URL]`: Voxdesk as a Model Context Protocol server over stdio, for AI assistants (Claude
 * Desktop, editors, agent frameworks; docs/mcp.md). With --url it talks to a running or hosted Voxdesk with the key
 * in VOXDESK_API_KEY; without, it starts an in-process service on the data dir, as `voxdesk transcribe` does. Stdout
 * is the protocol's: every log line goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import { openClientSession } from './client-session.js';
import { createMcpServer } from '../service/mcp/mcp-server.js';
import { integerOption } from './options.js';

interface McpOptions {
  url?: string;
  dataDir?: string;
  workers?: number;
}

export function registerMcpCommand(program: Command, version: string): void {
  program
    .command('mcp')
    .description('serve Voxdesk to AI assistants over the Model Context Protocol (stdio)')
    .option('--url <url>', 'use a running or hosted service (key in VOXDESK_API_KEY) instead of an in-process one')
    .option('--data-dir <dir>', 'data dir of the in-process service')
    .option('--workers <n>', 'engine workers of the in-process service', integerOption(1, 64))
    .action(async (opts: McpOptions) => {
      const session = await openClientSession(opts);
      const server = createMcpServer(session.client, version);
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
      process.stdin.on('end', () => void server.close());
      await server.connect(transport);
      await closed;
      await session.close();
    });
}
