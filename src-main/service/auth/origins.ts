/**
 * Which browser origins may talk to the service. The service's own origins are the exact addresses it listens on
 * (never derived from the Host header: a DNS-rebinding page would send Host: evil.example and Origin to match).
 */
export class Origins {
  private own: string[] = [];
  constructor(private readonly allowed: readonly string[]) {}

  /** Called after listen, when the port is known. */
  setListening(host: string, port: number): void {
    const hosts = host === '127.0.0.1' || host === 'localhost' || host === '::1' ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
    this.own = hosts.map((h) => `http://${h}:${port}`);
  }

  isOwn(origin: string): boolean {
    return this.own.includes(origin);
  }

  /** Own origin or configured allowedOrigins. */
  isAllowed(origin: string): boolean {
    return this.isOwn(origin) || this.allowed.includes(origin);
  }

  /** Host header values that name this service (DNS-rebinding defence for the session bootstrap). */
  isOwnHost(hostHeader: string | undefined): boolean {
    return hostHeader !== undefined && this.own.includes(`http://${hostHeader}`);
  }
}
