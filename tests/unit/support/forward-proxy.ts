/**
 * A tiny forwarding HTTP proxy on 127.0.0.1, standing in for a bank's corporate proxy: it forwards
 * absolute-URI requests (`GET http://host/path`, how an http:// target is asked for) and opens
 * CONNECT tunnels (how an https:// target is reached), and counts what it carried, per target host.
 * Used by tests/unit/transport/http-proxy.test.ts, and runnable on its own to watch a whole run go through it:
 *   node --import tsx tests/unit/support/forward-proxy.ts [port]   (prints its URL, a count per target
 *   on SIGINT/SIGTERM, and every 10 s when it changed)
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  url: string;
  /** Requests forwarded by absolute URI, and tunnels opened, per target `host:port`. */
  seen: { forwarded: Map<string, number>; tunnels: Map<string, number> };
  total(): number;
  close(): Promise<void>;
}

const bump = (counts: Map<string, number>, key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);

export async function startForwardProxy(port = 0): Promise<ForwardProxy> {
  const seen = { forwarded: new Map<string, number>(), tunnels: new Map<string, number>() };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      // An origin-form request (`GET /path`): a client that did not mean to use a proxy.
      res.writeHead(400, { 'content-type': 'text/plain' }).end('forward proxy: absolute URI expected');
      return;
    }
    bump(seen.forwarded, target.host);
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    bump(seen.tunnels, req.url ?? '');
    const upstream = connect(Number(port) || 443, host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    total: () => sum(seen.forwarded) + sum(seen.tunnels),
    close: async () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

if (require.main === module) {
  void startForwardProxy(Number(process.argv[2]) || 0).then((proxy) => {
    console.log(`forward proxy listening on ${proxy.url}`);
    const line = (): string =>
      `forward proxy: ${proxy.total()} carried — forwarded ${JSON.stringify(Object.fromEntries(proxy.seen.forwarded))}, tunnels ${JSON.stringify(Object.fromEntries(proxy.seen.tunnels))}`;
    let last = -1;
    setInterval(() => {
      if (proxy.total() !== last) console.log(line());
      last = proxy.total();
    }, 10_000).unref();
    const stop = (): void => {
      console.log(line());
      void proxy.close().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
