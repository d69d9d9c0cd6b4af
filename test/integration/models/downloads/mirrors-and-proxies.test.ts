/**
 * Model downloads on a restricted network: through a real forwarding proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY),
 * from an HTTPS server whose certificate is signed by a private CA (trusted only through the CA file), and from a
 * model mirror set as a setting, a serve flag or the environment. Failures name the host and suggest what to set.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DownloadNetwork } from '../../../../src-main/models/downloads/download-network.js';
import { CURATED_PACKAGES, type ModelPackage } from '../../../../src-main/models/packages/curated-models.js';
import { fetchToPart } from '../../../../src-main/models/downloads/http-download.js';
import { SHARED } from '../../../helpers/system.js';
import { startTestService, type TestService } from '../../../helpers/service.js';
import { Client, expectError } from '../../../helpers/http-client.js';
import { makeCertificates, startForwardProxy, type Certificates, type ForwardProxy } from '../../../helpers/network-fixtures.js';
import { startRangeServer, type RangeServer } from '../../../helpers/range-server.js';
import { PackageError } from '../../../../src-main/common/errors.js';

const GTCRN = readFileSync(join(SHARED, 'models', 'gtcrn_simple.onnx'));
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy', 'VOXDESK_MODEL_MIRROR', 'VOXDESK_CA_FILE'];

let work: string;
let certs: Certificates;
let proxy: ForwardProxy;
let secure: RangeServer;
let plain: RangeServer;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'voxdesk-net-'));
  certs = makeCertificates(work);
  proxy = await startForwardProxy();
  secure = await startRangeServer({ '/gtcrn-simple/gtcrn_simple.onnx': { body: GTCRN } }, { key: certs.key, cert: certs.cert });
  plain = await startRangeServer({ '/gtcrn-simple/gtcrn_simple.onnx': { body: GTCRN } });
});

afterAll(async () => {
  await Promise.all([proxy?.close(), secure?.close(), plain?.close()]);
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  for (const name of PROXY_VARIABLES) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  proxy.connects.length = 0;
  proxy.requests.length = 0;
});

afterEach(() => {
  for (const name of PROXY_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function fetchOptions(url: string, network: DownloadNetwork) {
  return {
    url,
    partPath: join(work, `part-${Math.random().toString(36).slice(2)}`),
    etag: null,
    expectedSize: GTCRN.length,
    signal: new AbortController().signal,
    onProgress: () => undefined,
    backoffMs: 10,
    retries: 1,
    network,
  };
}

async function downloadError(promise: Promise<unknown>): Promise<PackageError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PackageError);
    return error as PackageError;
  }
  throw new Error('the download did not fail');
}

describe('the downloader on a restricted network', () => {
  it('tunnels HTTPS through HTTPS_PROXY (CONNECT) and trusts a private CA from the CA file', async () => {
    process.env.HTTPS_PROXY = proxy.url;
    const network = await DownloadNetwork.open(certs.caFile);
    const opts = fetchOptions(`${secure.url}/gtcrn-simple/gtcrn_simple.onnx`, network);
    expect((await fetchToPart(opts)).bytes).toBe(GTCRN.length);
    expect(readFileSync(opts.partPath).equals(GTCRN)).toBe(true);
    expect(proxy.connects).toEqual([new URL(secure.url).host]);
    network.destroy();
  });

  it('without the CA file the certificate is refused at once, naming the host and the proxy', async () => {
    process.env.https_proxy = proxy.url;
    const network = await DownloadNetwork.open(null);
    const error = await downloadError(fetchToPart(fetchOptions(`${secure.url}/gtcrn-simple/gtcrn_simple.onnx`, network)));
    expect(error.problem).toBe('tls');
    expect(error.retryable).toBe(false);
    expect(error.host).toBe(new URL(secure.url).host);
    expect(error.message).toContain(`cannot verify the TLS certificate of ${new URL(secure.url).host} through the proxy ${proxy.url}`);
    expect(proxy.connects).toHaveLength(1); // not retried
    network.destroy();
  });

  it('forwards plain HTTP through HTTP_PROXY, and NO_PROXY sends a host direct', async () => {
    process.env.HTTP_PROXY = proxy.url;
    const network = await DownloadNetwork.open(null);
    const url = `${plain.url}/gtcrn-simple/gtcrn_simple.onnx`;
    expect((await fetchToPart(fetchOptions(url, network))).bytes).toBe(GTCRN.length);
    expect(proxy.requests).toEqual([url]);
    process.env.NO_PROXY = 'localhost,127.0.0.1';
    expect((await fetchToPart(fetchOptions(url, network))).bytes).toBe(GTCRN.length);
    expect(proxy.requests).toHaveLength(1);
    network.destroy();
  });

  it('a proxy that refuses the tunnel is reported with the target host and the proxy', async () => {
    process.env.HTTPS_PROXY = 'http://127.0.0.1:9'; // nothing listens on the discard port
    const network = await DownloadNetwork.open(certs.caFile);
    const error = await downloadError(fetchToPart(fetchOptions(`${secure.url}/gtcrn-simple/gtcrn_simple.onnx`, network)));
    expect(error.problem).toBe('unreachable');
    expect(error.message).toMatch(new RegExp(`^cannot reach ${new URL(secure.url).host} through the proxy http://127\\.0\\.0\\.1:9: .*ECONNREFUSED`));
    network.destroy();
  });

  it('a CA file that is missing or holds no certificate is a clear error', async () => {
    await expect(DownloadNetwork.open(join(work, 'nope.pem'))).rejects.toThrow(/cannot read the CA file .*nope\.pem/);
    writeFileSync(join(work, 'empty.pem'), 'not a certificate\n');
    await expect(DownloadNetwork.open(join(work, 'empty.pem'))).rejects.toThrow(/holds no PEM certificate/);
  });
});

describe('the service: mirror and CA settings', () => {
  let svc: TestService;
  let client: Client;
  const gtcrn = CURATED_PACKAGES.find((p) => p.id === 'gtcrn-simple')!;
  /** A curated-shaped package whose upstream host does not answer (a blocked network). */
  const blocked: ModelPackage = { ...gtcrn, files: [{ ...gtcrn.files[0]!, url: 'http://127.0.0.1:9/releases/gtcrn_simple.onnx' }] };

  beforeEach(async () => {
    svc = await startTestService({ modelPackages: [blocked] });
    svc.service.models.setMaxListeners(20);
    client = new Client(svc.url, svc.key);
  });
  afterEach(async () => {
    await svc.stop();
  });

  async function pullAndWait(id: string) {
    await client.post(`/v1/local/models/${id}/download`);
    await svc.service.models.whenDone(id);
    return (await (await client.get(`/v1/local/models/${id}`)).json()) as { state: string; error_code: string | null; error_message: string | null; verified: boolean };
  }

  it('an unreachable upstream host is named, and the message suggests the mirror setting', async () => {
    const status = await pullAndWait('gtcrn-simple');
    expect(status.state).toBe('failed');
    expect(status.error_code).toBe('download_failed');
    expect(status.error_message).toMatch(/^cannot reach 127\.0\.0\.1:9: .*ECONNREFUSED/);
    expect(status.error_message).toContain('If 127.0.0.1:9 is blocked or unreachable from this network, set a model mirror (Models tab → Download source, `voxdesk serve --model-mirror URL` or VOXDESK_MODEL_MIRROR) or a proxy (HTTPS_PROXY).');
  });

  it('PUT /v1/settings/models sets a mirror and a CA file; downloads then come over HTTPS through the proxy', async () => {
    expect(await (await client.get('/v1/settings/models')).json()).toEqual({
      mirror: null,
      mirror_from: null,
      ca_file: null,
      ca_file_from: null,
      proxy: { https: null, http: null, no_proxy: null },
    });
    process.env.HTTPS_PROXY = proxy.url.replace('http://', 'http://user:secret@');
    const put = await fetch(`${svc.url}/v1/settings/models`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mirror: `${secure.url}/`, ca_file: certs.caFile }),
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({
      mirror: secure.url,
      mirror_from: 'setting',
      ca_file: certs.caFile,
      ca_file_from: 'setting',
      proxy: { https: proxy.url, http: null, no_proxy: null },
    });
    const status = await pullAndWait('gtcrn-simple');
    expect(status).toMatchObject({ state: 'installed', verified: true, error_code: null });
    expect(proxy.connects).toEqual([new URL(secure.url).host]);
    expect(secure.requests.some((r) => r.path === '/gtcrn-simple/gtcrn_simple.onnx')).toBe(true);
  });

  it('a failing mirror is named as the source in the message', async () => {
    await putSettings({ mirror: 'http://127.0.0.1:9/models' });
    const status = await pullAndWait('gtcrn-simple');
    expect(status.error_message).toContain('The file came from the model mirror http://127.0.0.1:9/models');
  });

  it('refuses bad values with the reason, and other accounts get 404', async () => {
    await expectError(putSettings({ mirror: 'ftp://mirror.example/models' }), 400, 'invalid_request');
    await expectError(putSettings({ mirror: 'https://mirror.example/{nope}' }), 400, 'invalid_request');
    await expectError(putSettings({ ca_file: 'relative.pem' }), 400, 'invalid_request');
    const message = await expectError(putSettings({ ca_file: join(work, 'missing.pem') }), 400, 'invalid_request');
    expect(message).toContain('cannot read the CA file');
    await expectError(putSettings({ proxy: 'http://x' }), 400, 'unsupported_param');
    const other = await svc.service.keys.createKey('someone-else');
    await expectError(fetch(`${svc.url}/v1/settings/models`, { headers: { authorization: `Bearer ${other}` } }), 404, 'not_found');
    await expectError(putSettings({ mirror: null }, other), 404, 'not_found');
  });

  it('without a setting the environment applies; clearing the setting returns to it', async () => {
    process.env.VOXDESK_MODEL_MIRROR = plain.url;
    expect(await (await client.get('/v1/settings/models')).json()).toMatchObject({ mirror: plain.url, mirror_from: 'environment' });
    await putSettings({ mirror: 'https://mirror.example/models' });
    expect(await (await client.get('/v1/settings/models')).json()).toMatchObject({ mirror: 'https://mirror.example/models', mirror_from: 'setting' });
    await putSettings({ mirror: '' });
    expect(await (await client.get('/v1/settings/models')).json()).toMatchObject({ mirror: plain.url, mirror_from: 'environment' });
    expect((await pullAndWait('gtcrn-simple')).state).toBe('installed');
    expect(plain.requests.some((r) => r.path === '/gtcrn-simple/gtcrn_simple.onnx')).toBe(true);
  });

  function putSettings(body: Record<string, unknown>, key = svc.key): Promise<Response> {
    return fetch(`${svc.url}/v1/settings/models`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }
});

describe('voxdesk serve --model-mirror / --ca-file', () => {
  it('keeps them as the settings, and refuses bad values before starting', async () => {
    const svc = await startTestService({ modelMirror: 'https://models.example.com/voxdesk/', caFile: certs.caFile });
    try {
      const view = await (await new Client(svc.url, svc.key).get('/v1/settings/models')).json();
      expect(view).toMatchObject({ mirror: 'https://models.example.com/voxdesk', mirror_from: 'setting', ca_file: certs.caFile, ca_file_from: 'setting' });
    } finally {
      await svc.stop();
    }
    await expect(startTestService({ modelMirror: 'models.example.com' })).rejects.toThrow(/invalid service configuration: --model-mirror: .*http\(s\) URL/);
    await expect(startTestService({ caFile: join(work, 'missing.pem') })).rejects.toThrow(/invalid service configuration: --ca-file: cannot read the CA file/);
  });
});
