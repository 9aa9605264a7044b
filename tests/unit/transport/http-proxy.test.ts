/**
 * Behind a bank's proxy: the suite's HTTP client (transport/http.ts) sends through HTTPS_PROXY /
 * HTTP_PROXY, reaches NO_PROXY hosts directly, never proxies loopback unless PAYMENTS_PROXY_LOOPBACK=1,
 * and trusts a custom CA given as NODE_EXTRA_CA_CERTS through the proxy's CONNECT tunnel. Checked
 * with a tiny forwarding proxy on 127.0.0.1 (support/forward-proxy.ts) counting what it carried.
 * Run: node --import tsx --test tests/unit/transport/http-proxy.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describeProxy, HttpClient, noProxyList, TargetUnreachableError } from '../../../transport/http';
import { suiteEnvironment, type ProxySettings } from '../../../profile/run-settings';
import { certificatePem, selfSignedCertificate } from '../../../transport/x509';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy';

let target: Server;
let targetHost = '';
let proxy: ForwardProxy;
let hits = 0;

before(async () => {
  target = createServer((req, res) => {
    hits++;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ path: req.url, host: req.headers.host }));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  proxy = await startForwardProxy();
});

after(async () => {
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  await proxy.close();
});

const settings = (over: Partial<ProxySettings>): ProxySettings => ({
  httpsProxy: undefined,
  httpProxy: undefined,
  noProxy: undefined,
  loopback: false,
  ...over,
});
const get = (client: HttpClient, p: string) =>
  client.send('proxied read', {
    method: 'GET',
    url: `http://${targetHost}${p}`,
    headers: { accept: 'application/json' },
  });

test('the standard variables are read through run-settings, the lower-case spelling first', () => {
  const env = {
    HTTPS_PROXY: 'http://upper:3128',
    https_proxy: 'http://lower:3128',
    HTTP_PROXY: 'http://plain:3128',
    NO_PROXY: '.corp.example',
    PAYMENTS_PROXY_LOOPBACK: '1',
  };
  assert.deepEqual(suiteEnvironment(env).proxy, {
    httpsProxy: 'http://lower:3128',
    httpProxy: 'http://plain:3128',
    noProxy: '.corp.example',
    loopback: true,
  });
  assert.deepEqual(suiteEnvironment({}).proxy, settings({}));
});

test('NO_PROXY as applied: the user list plus loopback, unless PAYMENTS_PROXY_LOOPBACK=1', () => {
  assert.equal(noProxyList(settings({ noProxy: '.corp.example' })), '.corp.example,localhost,127.0.0.1,[::1]');
  assert.equal(noProxyList(settings({ noProxy: '.corp.example', loopback: true })), '.corp.example');
  assert.equal(noProxyList(settings({ loopback: true })), '');
  assert.equal(
    noProxyList(settings({ noProxy: ' * ' })),
    '*',
    'NO_PROXY=* means nothing is proxied, and stays so with loopback added',
  );
  // Credentials in a proxy URL never reach a message.
  assert.doesNotMatch(describeProxy(settings({ httpsProxy: 'http://user:s3cret@proxy.corp:3128' })), /s3cret|user/);
});

test('with HTTP_PROXY set and loopback allowed, every request goes through the proxy (absolute URI)', async () => {
  const client = new HttpClient({ proxy: settings({ httpProxy: proxy.url, loopback: true }) });
  const before = proxy.seen.forwarded.get(targetHost) ?? 0;
  const hitsBefore = hits;
  for (const p of ['/one', '/two', '/three']) assert.equal((await get(client, p)).response.status, 200);
  assert.equal((proxy.seen.forwarded.get(targetHost) ?? 0) - before, 3, 'the proxy did not carry the three requests');
  assert.equal(hits - hitsBefore, 3);
  assert.deepEqual((await get(client, '/four')).response.json, { path: '/four', host: targetHost });
});

test('NO_PROXY=* reaches everything directly', async () => {
  const client = new HttpClient({ proxy: settings({ httpProxy: proxy.url, noProxy: '*', loopback: true }) });
  const before = proxy.total();
  assert.equal(
    (
      await client.send('direct', {
        method: 'GET',
        url: `http://localhost:${targetHost.split(':')[1]}/star`,
        headers: {},
      })
    ).response.status,
    200,
  );
  assert.equal(proxy.total() - before, 0);
});

test('a NO_PROXY host is reached directly', async () => {
  const client = new HttpClient({
    proxy: settings({
      httpProxy: proxy.url,
      httpsProxy: proxy.url,
      noProxy: 'bank.example, 127.0.0.1',
      loopback: true,
    }),
  });
  const before = proxy.total();
  const hitsBefore = hits;
  assert.equal((await get(client, '/direct')).response.status, 200);
  assert.equal(hits - hitsBefore, 1, 'the target did not get the request');
  assert.equal(proxy.total() - before, 0, 'a NO_PROXY host went through the proxy');
});

test('loopback is never proxied by default: a bank setting HTTPS_PROXY and HTTP_PROXY globally still reaches the embedded reference', async () => {
  const client = new HttpClient({ proxy: settings({ httpProxy: proxy.url, httpsProxy: proxy.url }) });
  const before = proxy.total();
  assert.equal((await get(client, '/loopback')).response.status, 200);
  assert.equal(proxy.total() - before, 0);
});

test('a proxy that is down is named in the unreachable message', async () => {
  const client = new HttpClient({ proxy: settings({ httpProxy: 'http://127.0.0.1:9', loopback: true }) });
  await assert.rejects(get(client, '/nowhere'), (error: unknown) => {
    assert.ok(error instanceof TargetUnreachableError);
    assert.match(error.message, /proxy settings: HTTP_PROXY http:\/\/127\.0\.0\.1:9/);
    return true;
  });
});

test('an https:// target through the proxy CONNECT tunnel, trusted from NODE_EXTRA_CA_CERTS (a process of its own: Node reads it at start)', async () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = certificatePem(selfSignedCertificate(publicKey, privateKey, 'localhost'));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'payments-ca-'));
  const tls: TlsServer = createTlsServer(
    { key: privateKey.export({ type: 'pkcs8', format: 'pem' }), cert },
    (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"tls":true}'),
  );
  try {
    writeFileSync(path.join(dir, 'bank-ca.pem'), cert);
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://localhost:${(tls.address() as AddressInfo).port}/secure`;
    const http = path.join(__dirname, '..', '..', '..', 'transport', 'http.ts');
    const code = `new (require(${JSON.stringify(http)}).HttpClient)().send('tls', { method: 'GET', url: ${JSON.stringify(url)}, headers: {} }).then((e) => console.log(e.response.status, e.response.text), (e) => { console.log('error', e.message); process.exitCode = 1; })`;
    const env = {
      PATH: process.env.PATH,
      HTTPS_PROXY: proxy.url,
      PAYMENTS_PROXY_LOOPBACK: '1',
      NODE_EXTRA_CA_CERTS: path.join(dir, 'bank-ca.pem'),
    };
    const before = proxy.seen.tunnels.get(new URL(url).host) ?? 0;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '-e', code],
        { env, cwd: path.join(__dirname, '..', '..', '..') },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stdout}${stderr}`)) : resolve(stdout),
      ),
    );
    assert.equal(out.trim(), '200 {"tls":true}');
    assert.equal(
      (proxy.seen.tunnels.get(new URL(url).host) ?? 0) - before,
      1,
      'the https request did not go through a CONNECT tunnel of the proxy',
    );
  } finally {
    tls.closeAllConnections();
    await new Promise((resolve) => tls.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
