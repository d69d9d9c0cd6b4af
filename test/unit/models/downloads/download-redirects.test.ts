/**
 * What a model server may make the downloader do (trust review 2, item 10): a redirect never downgrades https to
 * http, and a download that starts at a public host never reaches this machine or its private network — neither by
 * a redirect to such an address nor by a public name that resolves to one.
 */
import { describe, expect, it } from 'vitest';
import { refusedRedirect } from '../../../../src-main/models/downloads/http-download.js';
import { isPrivateHost, publicOnlyLookup } from '../../../../src-main/models/downloads/private-hosts.js';

const url = (s: string) => new URL(s);

describe('isPrivateHost', () => {
  it('knows loopback, private, link-local and unique-local addresses and localhost', () => {
    for (const host of ['localhost', 'a.localhost', '127.0.0.1', '127.8.8.8', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '[::1]', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) {
      expect(isPrivateHost(host), host).toBe(true);
    }
    for (const host of ['huggingface.co', '8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateHost(host), host).toBe(false);
    }
  });
});

describe('refusedRedirect', () => {
  const origin = url('https://huggingface.co/model.tar.bz2');
  it('follows a release download to its CDN', () => {
    expect(refusedRedirect(origin, url('https://cdn-lfs.hf.co/x?sig=1'), origin)).toBeNull();
  });
  it('refuses https → http', () => {
    expect(refusedRedirect(origin, url('http://cdn.example.com/x'), origin)).toMatch(/redirected from https to http .*never leaves TLS/);
  });
  it('refuses a public host sending the download to this machine or the LAN', () => {
    for (const target of ['https://127.0.0.1/x', 'https://localhost:8080/x', 'https://169.254.169.254/latest/meta-data', 'https://192.168.0.10/x', 'https://[::1]/x']) {
      expect(refusedRedirect(origin, url(target), origin), target).toMatch(/an address on this machine or its private network/);
    }
  });
  it('lets a download that starts on this machine or the LAN (a mirror there) stay there', () => {
    const local = url('http://127.0.0.1:8080/a.tar.bz2');
    expect(refusedRedirect(local, url('http://127.0.0.1:9090/b.tar.bz2'), local)).toBeNull();
    expect(refusedRedirect(local, url('http://192.168.1.5/b'), local)).toBeNull();
  });
  it('refuses other schemes', () => {
    expect(refusedRedirect(url('http://127.0.0.1/a'), url('file:///etc/passwd'), url('http://127.0.0.1/a'))).toMatch(/unsupported scheme file:/);
  });
});

describe('publicOnlyLookup', () => {
  it('fails a name that resolves to a private address', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => publicOnlyLookup('localhost', {}, (e) => resolve(e)));
    expect(err?.code).toBe('EPRIVATEADDRESS');
    expect(err?.message).toMatch(/^localhost resolves to .*, an address on this machine or its private network$/);
  });
});
