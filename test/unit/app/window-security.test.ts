import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, APP_PAGE_URL, resolveAppFile } from '../../../src-main/app/app-protocol.js';
import { originOf, permissionAllowed } from '../../../src-main/app/permission-policy.js';
import {
  contentSecurityPolicy,
  EXTERNAL_LINK_HOSTS,
  isAllowedExternalLink,
  isAppPage,
  isTrustedSender,
  RENDERER_META_CSP,
} from '../../../src-main/app/window-security.js';

const INDEX_HTML = new URL('../../../src-renderer/index.html', import.meta.url);

/** A policy as directive → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

/** Does a CSP source expression of the meta policy allow `source` of the header policy? */
function covers(meta: string[], source: string): boolean {
  return meta.some((m) => m === source || (m.endsWith(':*') && source.startsWith(m.slice(0, -1)) && /^\d+$/.test(source.slice(m.length - 1))));
}

describe('window security', () => {
  it('lets the page connect only to the service origin and its WebSocket', () => {
    const csp = contentSecurityPolicy('http://127.0.0.1:41234');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain('connect-src http://127.0.0.1:41234 ws://127.0.0.1:41234;');
    expect(csp).toContain('media-src \'self\' blob: http://127.0.0.1:41234');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/\*/);
  });

  it('allows navigation to the app page only', () => {
    expect(isAppPage('app://voxdesk/index.html#jobs', APP_PAGE_URL)).toBe(true);
    expect(isAppPage('app://voxdesk/other.html', APP_PAGE_URL)).toBe(false);
    expect(isAppPage('https://evil.example/index.html', APP_PAGE_URL)).toBe(false);
    expect(isAppPage('file:///index.html', APP_PAGE_URL)).toBe(false);
    expect(isAppPage('not a url', APP_PAGE_URL)).toBe(false);
  });

  it('trusts IPC only from the top-level app frame', () => {
    expect(isTrustedSender({ url: APP_PAGE_URL }, APP_PAGE_URL)).toBe(true);
    expect(isTrustedSender({ url: APP_PAGE_URL, parent: {} }, APP_PAGE_URL)).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/' }, APP_PAGE_URL)).toBe(false);
    expect(isTrustedSender(null, APP_PAGE_URL)).toBe(false);
  });

  it('index.html carries the same policy as a meta tag, covering what the header allows', () => {
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(INDEX_HTML, 'utf8'))?.[1];
    expect(meta).toBe(RENDERER_META_CSP);
    const header = directives(contentSecurityPolicy('http://127.0.0.1:41234'));
    const tag = directives(RENDERER_META_CSP);
    // Not allowed in a meta tag: header only.
    expect(tag.has('frame-ancestors')).toBe(false);
    header.delete('frame-ancestors');
    expect([...tag.keys()].sort()).toEqual([...header.keys()].sort());
    // A browser enforces both policies: the meta must allow everything the header allows, or the app breaks.
    for (const [name, sources] of header) {
      for (const source of sources) expect(covers(tag.get(name)!, source), `${name} ${source}`).toBe(true);
    }
    expect(RENDERER_META_CSP).not.toContain('unsafe-eval');
  });

  it('opens links externally only for https hosts of the allow-list', () => {
    const hosts = ['docs.voxdesk.example'];
    expect(isAllowedExternalLink('https://docs.voxdesk.example/help#models', hosts)).toBe(true);
    expect(isAllowedExternalLink('https://evil.example/', hosts)).toBe(false);
    expect(isAllowedExternalLink('https://docs.voxdesk.example.evil.example/', hosts)).toBe(false);
    expect(isAllowedExternalLink('https://sub.docs.voxdesk.example/', hosts)).toBe(false);
    expect(isAllowedExternalLink('http://docs.voxdesk.example/', hosts)).toBe(false);
    expect(isAllowedExternalLink('https://docs.voxdesk.example:8443/', hosts)).toBe(false);
    expect(isAllowedExternalLink('https://user:pw@docs.voxdesk.example/', hosts)).toBe(false);
    expect(isAllowedExternalLink('file:///etc/passwd', hosts)).toBe(false);
    expect(isAllowedExternalLink('javascript:alert(1)', hosts)).toBe(false);
    expect(isAllowedExternalLink('not a url', hosts)).toBe(false);
    // The app links to no outside page today: nothing leaves it.
    expect(EXTERNAL_LINK_HOSTS).toEqual([]);
    expect(isAllowedExternalLink('https://voxdesk.org/help')).toBe(false);
  });

  it('grants the clipboard and the microphone to the app page only, and nothing else', () => {
    const ask = (permission: string, requester: string | undefined, mediaTypes: string[] = []) =>
      permissionAllowed({ permission, requester, mediaTypes }, APP_ORIGIN);
    expect(ask('clipboard-sanitized-write', APP_ORIGIN)).toBe(true);
    expect(ask('media', APP_PAGE_URL, ['audio'])).toBe(true);
    expect(ask('media', `${APP_ORIGIN}/`, ['audio'])).toBe(true);
    expect(ask('media', APP_PAGE_URL, ['video'])).toBe(false);
    expect(ask('media', APP_PAGE_URL, ['audio', 'video'])).toBe(false);
    expect(ask('media', APP_PAGE_URL, ['unknown'])).toBe(false);
    expect(ask('media', APP_PAGE_URL, [])).toBe(false);
    for (const other of ['notifications', 'geolocation', 'display-capture', 'openExternal', 'clipboard-read', 'fileSystem', 'hid', 'usb', 'serial', 'midi']) {
      expect(ask(other, APP_PAGE_URL, ['audio']), other).toBe(false);
    }
    for (const stranger of ['https://evil.example', 'app://other', 'http://127.0.0.1:8750', 'file:///index.html', '', undefined, 'null']) {
      expect(ask('media', stranger, ['audio']), String(stranger)).toBe(false);
      expect(ask('clipboard-sanitized-write', stranger), String(stranger)).toBe(false);
    }
    expect(originOf('app://voxdesk/index.html?x#y')).toBe(APP_ORIGIN);
  });

  it('grants the screen share of a meeting capture\'s computer sound only while it is armed, to the app page only', () => {
    const armed = (permission: string, requester: string, mediaTypes: string[] = []) => permissionAllowed({ permission, requester, mediaTypes }, APP_ORIGIN, true);
    expect(armed('media', APP_PAGE_URL, ['audio', 'video'])).toBe(true);
    expect(armed('display-capture', APP_PAGE_URL)).toBe(true);
    expect(armed('media', 'https://evil.example', ['audio', 'video'])).toBe(false);
    expect(armed('display-capture', 'https://evil.example')).toBe(false);
    expect(armed('media', APP_PAGE_URL, ['unknown'])).toBe(false);
    expect(armed('geolocation', APP_PAGE_URL)).toBe(false);
  });

  it('serves app:// files from the renderer dir only', () => {
    expect(resolveAppFile('/r', 'app://voxdesk/')).toEqual({ path: '/r/index.html', contentType: 'text/html; charset=utf-8' });
    expect(resolveAppFile('/r', 'app://voxdesk/assets/a.js')?.path).toBe('/r/assets/a.js');
    // The URL parser already folds dot segments; whatever survives stays inside the renderer dir.
    expect(resolveAppFile('/r', 'app://voxdesk/%2e%2e/%2e%2e/etc/passwd')?.path).toBe('/r/etc/passwd');
    expect(resolveAppFile('/r', 'app://voxdesk/..%2Fsecret')).toBeNull();
    expect(resolveAppFile('/r', 'app://other/index.html')).toBeNull();
    expect(resolveAppFile('/r', 'app://voxdesk/%E0%A4%A')).toBeNull();
  });
});
