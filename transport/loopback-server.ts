/**
 * The suite's own HTTP endpoint on loopback: it receives the service's notifications (spec §6) for
 * the suite's clients, and serves the documents an attacker would publish (a certificate behind x5u,
 * a key set behind jku) so those attacks reach a service that would fetch them. Bound to 127.0.0.1
 * only: a remote target cannot reach it, which is what it should do with such a URL anyway.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedNotification {
  path: string;
  receivedAt: number;
  body: unknown;
}

export class LoopbackServer {
  private readonly received: ReceivedNotification[] = [];
  private readonly hosted = new Map<string, { body: string; type: string }>();
  private readonly waiters = new Set<() => void>();
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const document = req.method === 'GET' ? this.hosted.get(req.url ?? '') : undefined;
      if (req.method === 'GET') {
        res
          .writeHead(document ? 200 : 404, { 'content-type': document?.type ?? 'text/plain' })
          .end(document?.body ?? '');
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: unknown = Buffer.concat(chunks).toString('utf8');
        try {
          body = JSON.parse(body as string);
        } catch {
          /* kept as text: the shape check reports it */
        }
        this.received.push({ path: req.url ?? '/', receivedAt: Date.now(), body });
        res.writeHead(204).end();
        for (const wake of this.waiters) wake();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** URL for one client: the path tells which client a notification was for. */
  urlFor(clientId: string): string {
    return `${this.url}/notify/${encodeURIComponent(clientId)}`;
  }

  /** Serves `body` at a URL of its own; returns the URL. */
  host(name: string, body: string, type: string): string {
    const urlPath = `/hosted/${encodeURIComponent(name)}`;
    this.hosted.set(urlPath, { body, type });
    return `${this.url}${urlPath}`;
  }

  matching(predicate: (n: ReceivedNotification) => boolean): ReceivedNotification[] {
    return this.received.filter(predicate);
  }

  async waitFor(
    predicate: (n: ReceivedNotification) => boolean,
    timeoutMs: number,
  ): Promise<ReceivedNotification | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.received.find(predicate);
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
