/**
 * How model downloads reach the network on corporate and restricted networks: the standard proxy variables
 * (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`, `NO_PROXY`, upper or lower case, read with proxy-from-env like curl
 * and npm do) choose a proxy per URL, and an extra CA file (a network that inspects TLS signs with its own CA) is
 * trusted on top of Node's roots. Tunnelling is done by the kept proxy agents (https-proxy-agent for CONNECT,
 * http-proxy-agent for plain HTTP), never by hand. NODE_EXTRA_CA_CERTS, read by Node itself at start, works too.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import { rootCertificates } from 'node:tls';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';
import { PackageError } from '../../common/errors.js';

/** Options added to one request: the agent tunnelling through a proxy, and the CAs trusted for TLS. */
export interface RequestNetwork {
  agent?: http.Agent;
  ca?: string[];
  /** The proxy the request goes through (credentials removed), for messages. */
  proxy: string | null;
}

/** A proxy URL as shown to people: no user name or password. */
export function redactProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return proxy.replace(/\/\/[^@/]*@/, '//');
  }
}

export class DownloadNetwork {
  private readonly ca: string[] | undefined;
  private readonly agents = new Map<string, http.Agent>();

  /**
   * `caFile`: a PEM file of extra certificate authorities (null: Node's roots, plus NODE_EXTRA_CA_CERTS), read
   * without blocking the service's thread. Throws PackageError (download_failed) when it cannot be read or holds no certificate.
   */
  static async open(caFile: string | null = null): Promise<DownloadNetwork> {
    return new DownloadNetwork(caFile, caFile ? await loadCaFile(caFile) : null);
  }

  private constructor(
    readonly caFile: string | null,
    extraCas: string[] | null,
  ) {
    this.ca = extraCas ? [...rootCertificates, ...extraCas] : undefined;
  }

  /** The proxy the environment names for `url` ('' = none), per proxy-from-env (NO_PROXY honoured). */
  proxyFor(url: URL): string | null {
    return getProxyForUrl(url.toString()) || null;
  }

  requestOptions(url: URL): RequestNetwork {
    const proxy = this.proxyFor(url);
    if (!proxy) return { ...(this.ca ? { ca: this.ca } : {}), proxy: null };
    const key = `${url.protocol}|${proxy}`;
    let agent = this.agents.get(key);
    if (!agent) {
      // The CA list also covers an https:// proxy's own certificate.
      const tls = this.ca ? { ca: this.ca } : {};
      agent = url.protocol === 'https:' ? new HttpsProxyAgent(proxy, tls) : new HttpProxyAgent(proxy, tls);
      this.agents.set(key, agent);
    }
    return { agent, ...(this.ca ? { ca: this.ca } : {}), proxy: redactProxy(proxy) };
  }

  /** Closes pooled proxy connections. */
  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * The certificates of a PEM file; a missing, unreadable or certificate-less file is a PackageError (download_failed). Read
 * synchronously: for the service's configuration at start (config.ts); downloads and settings use loadCaFile.
 */
export function readCaFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw unreadable(path, cause);
  }
  return certificatesIn(text, path);
}

/** readCaFile without blocking the event loop. */
export async function loadCaFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw unreadable(path, cause);
  }
  return certificatesIn(text, path);
}

function unreadable(path: string, cause: unknown): PackageError {
  return new PackageError('download_failed', `cannot read the CA file ${path}: ${(cause as Error).message}`, { cause });
}

function certificatesIn(text: string, path: string): string[] {
  const certificates = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (certificates.length === 0) throw new PackageError('download_failed', `the CA file ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return certificates;
}
