/**
 * The MCP endpoint `/mcp` (streamable HTTP, docs/mcp.md): the same tools as `voxdesk mcp` for assistants that reach
 * Voxdesk over the network. Stateless: each request gets its own server, whose tools call this service on loopback
 * with the caller's own key — so a tool call passes every rule an API request passes (the account's jobs only, the
 * upload limits, prices and the spending cap), and nothing here decides what an account may do. Behind the same key,
 * Origin and failed-key checks as /v1; the local account only unless the operator enabled it for every account, and
 * even then the tools that read or write files of this machine (transcribe_file, speak_to_file) are the local account's.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { ApiClient } from '../../common/api-client.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../app-env.js';
import { LOCAL_ACCOUNT } from '../config.js';
import { createMcpServer } from './mcp-server.js';

export const MCP_PATH = '/mcp';

/** The key the request was authenticated with (the auth middleware has accepted it). */
function bearerKey(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1] ?? '';
}

export function mcpRoutes(deps: Pick<AppDeps, 'selfUrl'>, version: string): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.all(MCP_PATH, async (c) => {
    const client = new ApiClient({ baseUrl: deps.selfUrl(), apiKey: bearerKey(c.req.header('authorization')) });
    // Files of this machine are the machine owner's: only the local account gets the tools that read or write them.
    const server = createMcpServer(client, version, { fileTools: c.get('owner').accountName === LOCAL_ACCOUNT });
    // No session id: every request stands alone, answered as one SSE stream (progress, then the result); the server
    // and transport are this request's only and go with it.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });
  return app;
}
