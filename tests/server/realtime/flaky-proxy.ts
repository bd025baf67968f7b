import net from 'node:net';

/**
 * A TCP proxy in front of the test server that plays the network between a browser and /ws:
 * - `cut()`: every open connection is reset and new ones are refused (Wi-Fi gone, server
 *   unreachable) until `restore()`;
 * - `freeze()`: connections stay open but nothing gets through in either direction (laptop
 *   asleep, NAT entry dropped): only heartbeats can notice.
 * The client under test connects to `proxy.baseUrl` instead of the server's.
 */
export class FlakyProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private mode: 'up' | 'cut' | 'frozen' = 'up';
  /** Connections accepted while up (reconnect attempts while cut are refused, not counted). */
  accepted = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.onClient(client));
  }

  static async start(targetBaseUrl: string): Promise<FlakyProxy> {
    const url = new URL(targetBaseUrl);
    const proxy = new FlakyProxy({ host: '127.0.0.1', port: Number(url.port) });
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', () => resolve()));
    proxy.port = (proxy.server.address() as net.AddressInfo).port;
    return proxy;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private onClient(client: net.Socket): void {
    client.on('error', () => {});
    if (this.mode !== 'up') {
      client.resetAndDestroy();
      return;
    }
    this.accepted++;
    const upstream = net.connect(this.target.port, this.target.host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    const forget = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', forget);
    upstream.on('close', forget);
    // Not pipe(): a frozen proxy must swallow bytes, not queue them for later.
    client.on('data', (chunk) => {
      if (this.mode === 'up') upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (this.mode === 'up') client.write(chunk);
    });
  }

  /** Resets every connection and refuses new ones until `restore()`. */
  cut(): void {
    this.mode = 'cut';
    for (const [client, upstream] of this.pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    this.pairs.clear();
  }

  /** Keeps connections open but lets nothing through (and refuses new ones) until `restore()`. */
  freeze(): void {
    this.mode = 'frozen';
  }

  /** Back to normal for new connections; frozen ones are dropped (their streams lost bytes). */
  restore(): void {
    if (this.mode === 'frozen') {
      for (const [client, upstream] of this.pairs) {
        client.destroy();
        upstream.destroy();
      }
      this.pairs.clear();
    }
    this.mode = 'up';
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
