/**
 * The MCP endpoint `/mcp` over streamable HTTP with the official SDK's client: the local account's tools, the key
 * and Origin checks of /v1, other accounts refused unless the operator enabled them, and then without the tools that
 * touch this machine's files and without another account's jobs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VOXDESK_VERSION } from '../../../../src-main/common/version.js';
import { ROOT, startTestService, type TestService } from '../../../helpers/service.js';
import { SHARED } from '../../../helpers/system.js';

let t: TestService | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await t?.stop();
  t = undefined;
});

async function connect(service: TestService, key: string): Promise<Client> {
  const client = new Client({ name: 'voxdesk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('the MCP endpoint /mcp', () => {
  it("serves the local account's tools, announcing Voxdesk's version", async () => {
    t = await startTestService();
    const mcp = await connect(t, t.key);
    expect(mcp.getServerVersion()).toEqual({ name: 'voxdesk', version: VOXDESK_VERSION });
    expect(VOXDESK_VERSION).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_transcript', 'job_status', 'list_models', 'search_transcripts', 'speak_to_file', 'transcribe_file', 'usage_this_month']);
    const done = (await mcp.callTool({ name: 'transcribe_file', arguments: { path: join(SHARED, 'audio/jfk.wav'), model: 'test-asr' } })) as ToolAnswer;
    expect(done.structuredContent).toMatchObject({ status: 'succeeded', text: expect.stringMatching(/^test job_/) });
    const status = (await mcp.callTool({ name: 'job_status', arguments: { job_id: done.structuredContent!.job_id } })) as ToolAnswer;
    expect(status.content[0]!.text).toMatch(/^jfk\.wav is succeeded/);
  });

  it('asks for a key and refuses a foreign Origin, as /v1 does', async () => {
    t = await startTestService();
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const noKey = await fetch(`${t.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
    expect(noKey.status).toBe(401);
    const foreign = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${t.key}`, origin: 'https://evil.example' }, body: JSON.stringify(initialize) });
    expect(foreign.status).toBe(403);
  });

  it('answers other accounts 404 unless enabled; then without file tools and without the local jobs', async () => {
    t = await startTestService();
    const otherKey = await t.service.keys.createKey('someone else');
    const refused = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${otherKey}` },
      body: JSON.stringify(initialize),
    });
    expect(refused.status).toBe(404);
    await t.stop();

    t = await startTestService({ mcpForAllAccounts: true });
    const local = await connect(t, t.key);
    const job = (await local.callTool({ name: 'transcribe_file', arguments: { path: join(SHARED, 'audio/jfk.wav'), model: 'test-asr', wait: false } })) as ToolAnswer;
    const other = await connect(t, await t.service.keys.createKey('someone else'));
    const { tools } = await other.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_transcript', 'job_status', 'list_models', 'search_transcripts', 'usage_this_month']);
    const status = (await other.callTool({ name: 'job_status', arguments: { job_id: job.structuredContent!.job_id } })) as ToolAnswer;
    expect(status.isError).toBe(true);
    expect(status.content[0]!.text).toMatch(/^not_found: /);
  });
});
