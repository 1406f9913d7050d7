import * as net from 'node:net';

// A TCP proxy whose open connections can go silent both ways — no byte passes in either direction, and no
// FIN or RST either — as a network does when a laptop sleeps or a NAT forgets a flow. New connections after
// that pass as usual (the network came back, on a new flow).

export class SilentProxy {
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(upstreamPort: number): Promise<SilentProxy> {
    const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
    const server = net.createServer((client) => {
      const upstream = net.connect(upstreamPort, '127.0.0.1');
      const pair = { client, upstream };
      pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      const end = () => {
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new SilentProxy(server, (server.address() as net.AddressInfo).port);
    (proxy as unknown as { pairs: typeof pairs }).pairs = pairs;
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Every open connection stops carrying bytes, both ways, and stays open. Returns how many went silent. */
  silence(): number {
    for (const { client, upstream } of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    return this.pairs.size;
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
