/** proxy-from-env ships no types: the one function used here. */
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from *_PROXY / NO_PROXY (read from process.env at each call), or '' for none. */
  export function getProxyForUrl(url: string | URL): string;
}
