import { describe, expect, it } from 'vitest';
import { APP_PAGE_URL, resolveAppFile } from '../../../src-main/app/app-protocol.js';
import { contentSecurityPolicy, isAppPage, isExternalLink, isTrustedSender } from '../../../src-main/app/window-security.js';

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

  it('opens only https links externally', () => {
    expect(isExternalLink('https://voxdesk.org/help')).toBe(true);
    expect(isExternalLink('http://example.com')).toBe(false);
    expect(isExternalLink('file:///etc/passwd')).toBe(false);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
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
