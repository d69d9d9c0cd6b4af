/**
 * A corporate network in miniature: a private certificate authority made with openssl (as a TLS-inspecting proxy's
 * CA would be) signing a certificate for 127.0.0.1, and a real forwarding proxy (the `proxy` package: CONNECT
 * tunnels and plain HTTP forwarding) that records what passed through it.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createProxy } from 'proxy';
import { requireCommand } from './system.js';

export interface Certificates {
  /** PEM file of the private CA (what a person gives as the CA file). */
  caFile: string;
  /** Server key and certificate (PEM) for 127.0.0.1 / localhost, signed by the CA. */
  key: string;
  cert: string;
}

export function makeCertificates(dir: string): Certificates {
  const openssl = requireCommand('openssl');
  const run = (...args: string[]) => execFileSync(openssl, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Voxdesk Test Inspection CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext');
  return { caFile: join(dir, 'ca.pem'), key: readFileSync(join(dir, 'server.key'), 'utf8'), cert: readFileSync(join(dir, 'server.pem'), 'utf8') };
}

export interface ForwardProxy {
  url: string;
  /** host:port of every CONNECT tunnel asked for. */
  connects: string[];
  /** Absolute URLs of plain HTTP requests forwarded. */
  requests: string[];
  close(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const server = createProxy(http.createServer());
  const connects: string[] = [];
  const requests: string[] = [];
  server.prependListener('connect', (req: http.IncomingMessage) => connects.push(req.url ?? ''));
  server.prependListener('request', (req: http.IncomingMessage) => requests.push(req.url ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
