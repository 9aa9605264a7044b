/**
 * `npm run bench [-- --only suite|throughput] [--quick]`: how fast the suite runs at any scale, and
 * how fast the reference serves. One run measures, on this machine:
 *  - the full conformance run against the reference at 1 and 2 workers (wall time with server start,
 *    verdicts, HTTP exchanges, peak RSS of the whole process tree);
 *  - the same with a 10 s settlement delay: the added wall time (settlement waits must overlap);
 *  - the same with 100 ms latency per request at 8 workers, against the ideal
 *    exchanges × 100 ms / 8 + the no-latency run;
 *  - the suite cut into 3 shards: merged verdicts must equal the single run's;
 *  - the reference's throughput on valid pacs.008 submissions (50 connections) next to a bare
 *    fastify endpoint, as a ratio.
 * Prints a table (ratios with their targets, ✓/✗) and writes it to reports/bench/latest.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPrivateKey } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Pool, request } from 'undici';
import { runPlaywright, type SuiteRun } from './lib/run-playwright';
import { flattenReport, readReportFile } from '../helpers/playwright-report';
import { environmentsDir } from '../helpers/profile';
import { buildPacs008 } from '../helpers/messages/pacs008';
import { authenticationJwt, scaJwt, type ClientIdentity } from '../helpers/client-jwts';
import { generateRsaKeyPair } from '../helpers/keys';
import { runPaths } from '../helpers/run-folder';

// ── options ─────────────────────────────────────────────────────────────────────────────────────
type Part = 'suite' | 'throughput';
interface Options {
  parts: Set<Part>;
  quick: boolean;
}

function parseArgs(argv: string[]): Options {
  const parts = new Set<Part>();
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      for (const p of (value ?? '').split(',')) {
        if (p !== 'suite' && p !== 'throughput') usage(`unknown part "${p}"`);
        parts.add(p as Part);
      }
    } else if (arg === '--help' || arg === '-h') usage();
    else usage(`unknown argument "${arg}"`);
  }
  return { parts: parts.size ? parts : new Set<Part>(['suite', 'throughput']), quick };
}

function usage(problem?: string): never {
  if (problem) console.error(`bench: ${problem}`);
  console.error('usage: npm run bench [-- --only suite|throughput] [--quick]');
  process.exit(problem ? 2 : 0);
}

// ── targets (issue "Fast runs at any scale") ───────────────────────────────────────────────────
const SETTLEMENT_DELAY_MS = 10_000;
const TARGET_ADDED_WALL_S = 12;
const LATENCY_MS = 100;
const LATENCY_WORKERS = 8;
const TARGET_LATENCY_RATIO = 1.5;
const SHARDS = 3;
const CONNECTIONS = 50;
/** Issue 7: peak memory of a 2-worker run, RSS summed over the process tree, in MB (10^6 bytes). */
const TARGET_PEAK_MB = 600;
const WINDOWS = 3;
const TARGET_RATE = 1_500;
const TARGET_P99_MS = 50;

// ── peak RSS of a process tree, from /proc ─────────────────────────────────────────────────────
const PAGE_BYTES = 4096;

/**
 * Sum of resident memory of the suite run, in bytes: every process under `root`'s Playwright child
 * (runner, workers, reference and its shell), not `root` nor its other children. tsx keeps an esbuild
 * service process (about 12 MB) under the bench once it has compiled a changed file: the bench's, not
 * the suite's.
 */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name sits in parentheses and may hold spaces: fields are counted after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const ppid = Number(fields[1]);
      rss.set(pid, Number(fields[21]) * PAGE_BYTES);
      const list = children.get(ppid) ?? [];
      list.push(pid);
      children.set(ppid, list);
    } catch {
      // The process ended between readdir and read.
    }
  }
  let total = 0;
  const stack = (children.get(root) ?? []).filter(isPlaywrightCli);
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** The Playwright CLI that runPlaywright starts (`node node_modules/@playwright/test/cli.js test …`). */
function isPlaywrightCli(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some((arg) => arg.endsWith(path.join('@playwright', 'test', 'cli.js')));
  } catch {
    return false;
  }
}

/** Samples the tree under this process every 200 ms until stopped; returns the peak. */
function rssSampler(): { stop: () => number } {
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, treeRss(process.pid));
  };
  const timer = setInterval(sample, 200);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

// ── suite runs ─────────────────────────────────────────────────────────────────────────────────
interface Measured {
  label: string;
  run: SuiteRun;
  wallMs: number;
  exchanges: number;
  peakRssBytes: number;
  /** The longest tests of the run, "title (12.3 s)": where the wall time goes. */
  slowest: string[];
  /** How many tests took at least the settlement delay: each of them waited for one. */
  atLeastDelay: number;
}

/** Per spec (every project and retry summed), keyed by "file › describe › title". */
function slowestTests(jsonReport: string, n: number): { slowest: string[]; atLeastDelay: number } {
  const report = readReportFile(jsonReport);
  if (!report) return { slowest: [], atLeastDelay: 0 };
  const msBySpec = new Map<string, number>();
  for (const t of flattenReport(report)) msBySpec.set(t.title, (msBySpec.get(t.title) ?? 0) + t.durationMs);
  const found = [...msBySpec].map(([title, ms]) => ({ title, ms }));
  const slowest = found
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((t) => `${t.title} (${seconds(t.ms)})`);
  return { slowest, atLeastDelay: found.filter((t) => t.ms >= SETTLEMENT_DELAY_MS).length };
}

function countLines(dir: string): number {
  if (!existsSync(dir)) return 0;
  let lines = 0;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.jsonl')) continue;
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  }
  return lines;
}

async function measureSuite(label: string, project: string, workers: number, env: Record<string, string> = {}, extraArgs: string[] = []): Promise<Measured> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'payments-bench-'));
  const transcripts = runPaths(scratch).transcripts;
  process.stdout.write(`bench: ${label} … `);
  const sampler = rssSampler();
  try {
    const run = await runPlaywright(
      [`--project=${project}`, ...extraArgs],
      {
        PAYMENTS_ALLURE: '0',
        PAYMENTS_WORKERS: String(workers),
        // A run folder of its own, removed after: the bench keeps only its measures.
        PAYMENTS_RUN_DIR: scratch,
        ...env,
      },
      { quiet: true },
    );
    const peakRssBytes = sampler.stop();
    const measured = { label, run, wallMs: run.durationMs, exchanges: countLines(transcripts), peakRssBytes, ...slowestTests(runPaths(scratch).jsonReport, 5) };
    const c = run.counts;
    console.log(`${seconds(measured.wallMs)}, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped, ${measured.exchanges} exchanges, peak RSS ${mib(peakRssBytes)}`);
    return measured;
  } finally {
    sampler.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A copy of the local profile under environments/bench-*.json, removed by the caller. */
function writeBenchProfile(name: string, timeoutMs: number): string {
  const local = JSON.parse(readFileSync(path.join(environmentsDir, 'local.json'), 'utf8')) as { polling: Record<string, number> };
  const file = path.join(environmentsDir, `${name}.json`);
  const polling = { ...local.polling, timeoutMs };
  writeFileSync(file, JSON.stringify({ ...local, name, description: `Temporary profile of npm run bench (${name}); deleted when the bench ends.`, polling }, null, 2));
  temporaryFiles.add(file);
  return file;
}

const temporaryFiles = new Set<string>();
function removeTemporaryFiles(): void {
  for (const f of temporaryFiles) rmSync(f, { force: true });
  temporaryFiles.clear();
}

/** "file › describe › title" → outcome, without the project name (shards and runs use the same one anyway). */
function verdicts(run: SuiteRun): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of run.tests) out.set(t.title.split(' › ').slice(1).join(' › '), t.outcome);
  return out;
}

function compareVerdicts(a: Map<string, string>, b: Map<string, string>): string[] {
  const diffs: string[] = [];
  for (const title of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(title) ?? 'absent';
    const y = b.get(title) ?? 'absent';
    if (x !== y) diffs.push(`${title}: single run ${x}, shards ${y}`);
  }
  return diffs.sort();
}

interface SuiteResults {
  runs: Measured[];
  rows: Row[];
  notes: string[];
}

async function suitePart(options: Options): Promise<SuiteResults> {
  const runs: Measured[] = [];
  const rows: Row[] = [];
  const notes: string[] = [];

  const one = options.quick ? undefined : await measureSuite('1 worker', 'local', 1);
  if (one) runs.push(one);
  const two = await measureSuite('2 workers', 'local', 2);
  runs.push(two);

  // Shards right after the single run, so both see the same tests while the suite is being edited.
  if (!options.quick) {
    const shards: Measured[] = [];
    for (let i = 1; i <= SHARDS; i++) shards.push(await measureSuite(`shard ${i}/${SHARDS} (2 workers)`, 'local', 2, {}, [`--shard=${i}/${SHARDS}`]));
    runs.push(...shards);
    const merged = new Map<string, string>();
    for (const s of shards) for (const [title, outcome] of verdicts(s.run)) merged.set(title, outcome);
    const diffs = compareVerdicts(verdicts(two.run), merged);
    const slowest = Math.max(...shards.map((s) => s.wallMs));
    rows.push({
      measure: `${SHARDS} shards merged: same verdicts as one run (${merged.size} vs ${verdicts(two.run).size} tests)`,
      value: diffs.length ? `${diffs.length} differ` : 'same',
      target: 'same',
      ok: diffs.length === 0,
    });
    rows.push({ measure: `slowest shard vs one run (shards in parallel on ${SHARDS} machines)`, value: ratio(slowest / two.wallMs), target: '—', ok: undefined });
    for (const d of diffs.slice(0, 15)) notes.push(`shard verdict differs: ${d}`);
    if (diffs.length > 15) notes.push(`… and ${diffs.length - 15} more verdict differences`);
  }

  // Settlement delay: the local profile's 10 s polling timeout would end every wait just as the
  // payment settles, so a temporary copy waits longer. Same suite, same reference, same dialect.
  writeBenchProfile('bench-delay', 45_000);
  let delayed: Measured;
  try {
    delayed = await measureSuite(`2 workers, settlement ${SETTLEMENT_DELAY_MS / 1000} s`, 'bench-delay', 2, { REF_SETTLEMENT_DELAY_MS: String(SETTLEMENT_DELAY_MS) });
  } finally {
    removeTemporaryFiles();
  }
  runs.push(delayed);

  const latency = await measureSuite(`${LATENCY_WORKERS} workers, latency ${LATENCY_MS} ms`, 'local', LATENCY_WORKERS, { REF_LATENCY_MS: String(LATENCY_MS) });
  runs.push(latency);

  if (one) rows.push({ measure: 'speed-up, 2 workers vs 1', value: ratio(one.wallMs / two.wallMs), target: '—', ok: undefined });
  rows.push({
    measure: 'peak memory, 2 workers (RSS summed over the process tree)',
    value: `${mb(two.peakRssBytes)} (${mib(two.peakRssBytes)})`,
    target: `< ${TARGET_PEAK_MB} MB`,
    ok: two.peakRssBytes < TARGET_PEAK_MB * 1e6,
  });
  rows.push({ measure: 'exchanges per second (2 workers, wall time)', value: (two.exchanges / (two.wallMs / 1000)).toFixed(0), target: '—', ok: undefined });

  const added = (delayed.wallMs - two.wallMs) / 1000;
  rows.push({ measure: `added wall time with ${SETTLEMENT_DELAY_MS / 1000} s settlement (2 workers)`, value: `+${added.toFixed(1)} s`, target: `≤ ${TARGET_ADDED_WALL_S} s`, ok: added <= TARGET_ADDED_WALL_S });
  // Where the delay still costs: tests that waited for an observation or the pool still settling.
  notes.push(`with the ${SETTLEMENT_DELAY_MS / 1000} s settlement delay, the longest tests (a test waits when its observation or the pool is still settling; ${delayed.atLeastDelay} took ≥ ${SETTLEMENT_DELAY_MS / 1000} s): ${delayed.slowest.join('; ')}`);
  if (!sameCounts(two, delayed)) notes.push(`settlement-delay run verdicts differ from the 2-worker run: ${countsText(delayed)} vs ${countsText(two)}${failureList(delayed)}`);

  const ideal = (latency.exchanges * LATENCY_MS) / LATENCY_WORKERS + two.wallMs;
  const latencyRatio = latency.wallMs / ideal;
  rows.push({
    measure: `latency run / ideal (${latency.exchanges} × ${LATENCY_MS} ms / ${LATENCY_WORKERS} + ${seconds(two.wallMs)} = ${seconds(ideal)})`,
    value: ratio(latencyRatio),
    target: `≤ ${TARGET_LATENCY_RATIO}`,
    ok: latencyRatio <= TARGET_LATENCY_RATIO,
  });
  if (!sameCounts(two, latency)) notes.push(`latency run verdicts differ from the 2-worker run: ${countsText(latency)} vs ${countsText(two)}${failureList(latency)}`);

  return { runs, rows, notes };
}

const sameCounts = (a: Measured, b: Measured): boolean => a.run.counts.passed === b.run.counts.passed && a.run.counts.failed === b.run.counts.failed && a.run.counts.skipped === b.run.counts.skipped;
const countsText = (m: Measured): string => `${m.run.counts.passed}/${m.run.counts.failed}/${m.run.counts.skipped}`;
const failureList = (m: Measured): string => {
  const failed = m.run.tests.filter((t) => t.outcome === 'failed');
  return failed.length ? `; failed: ${failed.slice(0, 8).map((f) => f.title).join('; ')}${failed.length > 8 ? '; …' : ''}` : '';
};

// ── throughput ─────────────────────────────────────────────────────────────────────────────────
interface Server {
  url: string;
  child: ChildProcess;
}

/** Starts a server as a child process and reads its port from a stdout line. */
function startServer(what: string, args: string[], env: Record<string, string>, portLine: RegExp): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let err = '';
    let done = false;
    const timer = setTimeout(() => fail(new Error(`${what} did not report its port within 30 s`)), 30_000);
    const fail = (error: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(`${error.message}\n${err.slice(-2000)}`));
    };
    child.stdout!.on('data', (d: Buffer) => {
      if (done) return; // keep draining so the child never blocks on a full pipe
      out += d.toString();
      const m = portLine.exec(out);
      if (m) {
        done = true;
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${m[1]}`, child });
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.on('exit', (code) => fail(new Error(`${what} exited with code ${code} before listening`)));
  });
}

const children = new Set<ChildProcess>();
async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
  children.delete(server.child);
}

interface Submission {
  body: string;
  headers: Record<string, string>;
}

interface LoadResult {
  completed: number;
  ok: number;
  statuses: Map<number, number>;
  errors: number;
  elapsedMs: number;
  exhausted: boolean;
  p50: number;
  p99: number;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** One result over consecutive windows: counts add up, percentiles come from every latency. */
function mergeWindows(windows: (LoadResult & { latencies: number[] })[]): LoadResult {
  const latencies = windows.flatMap((w) => w.latencies).sort((a, b) => a - b);
  const statuses = new Map<number, number>();
  for (const w of windows) for (const [code, n] of w.statuses) statuses.set(code, (statuses.get(code) ?? 0) + n);
  return {
    completed: latencies.length,
    ok: windows.reduce((n, w) => n + w.ok, 0),
    statuses,
    errors: windows.reduce((n, w) => n + w.errors, 0),
    elapsedMs: windows.reduce((n, w) => n + w.elapsedMs, 0),
    exhausted: windows.some((w) => w.exhausted),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const percentile = (sorted: number[], p: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);

/**
 * CONNECTIONS concurrent loops, each sending the next pre-built submission until the time or the pool
 * runs out. `cycle` reuses the pool (for an endpoint that ignores content; the reference needs a fresh
 * msgId and SCA JWT per submission).
 */
async function fire(pool: Pool, urlPath: string, items: Submission[], from: number, durationMs: number, okStatus: number, cycle = false): Promise<LoadResult & { next: number; latencies: number[] }> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = from;
  let errors = 0;
  let exhausted = false;
  const started = performance.now();
  const deadline = started + durationMs;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const item = items[cycle ? next++ % items.length : next++];
      if (!item) {
        exhausted = true;
        return;
      }
      const t0 = performance.now();
      try {
        const res = await pool.request({ path: urlPath, method: 'POST', headers: item.headers, body: item.body });
        await res.body.text();
        latencies.push(performance.now() - t0);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsedMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    completed: latencies.length,
    ok: statuses.get(okStatus) ?? 0,
    statuses,
    errors,
    elapsedMs,
    exhausted,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    next: Math.min(next, items.length),
    latencies,
  };
}

interface BuildJob {
  clientId: string;
  kid: string;
  iss: string;
  privatePem: string;
}
interface Built {
  body: string;
  sca: string;
}

function buildSubmissions(job: BuildJob, from: number, count: number): Built[] {
  const key = createPrivateKey(job.privatePem);
  const client: ClientIdentity = { role: 'bench', clientId: job.clientId, clientSecret: '', kid: job.kid, iss: job.iss, privateKey: key, publicPem: '' };
  const out: Built[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify(buildPacs008({ seed: `bench-${from + i}` }));
    out.push({ body, sca: scaJwt(client, body) });
  }
  return out;
}

/** This same file as a worker thread (see the bottom of the file), building one slice of the pool. */
function buildInWorker(job: BuildJob, from: number, count: number): Promise<Built[]> {
  return new Promise((resolve, reject) => {
    // `--import tsx` does not reach worker threads on Node 20: the worker registers tsx's CommonJS hook itself.
    const code = `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(__filename)});`;
    const worker = new Worker(code, { eval: true, workerData: { job, from, count } });
    worker.once('message', (built: Built[]) => {
      resolve(built);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; json: unknown; text: string }> {
  const res = await request(url, { method: 'POST', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, text };
}

interface ThroughputResults {
  rows: Row[];
  serverRows: ServerRow[];
  notes: string[];
}

interface ServerRow {
  server: string;
  perSecond: number;
  p50: number;
  p99: number;
  detail: string;
}

async function throughputPart(options: Options): Promise<ThroughputResults> {
  const durationMs = options.quick ? 3_000 : 10_000;
  const warmupMs = options.quick ? 500 : 1_000;
  const notes: string[] = [];
  const submitPath = '/payments/pacs008/v10';

  process.stdout.write('bench: starting the reference … ');
  const reference = await startServer('the reference', ['--import', 'tsx', path.join('reference', 'main.ts')], { REF_HOST: '127.0.0.1', REF_PORT: '0' }, /reference listening on port (\d+)/);
  console.log(reference.url);
  let fastify: Server | undefined;
  try {
    // One client, registered through the admin API, one access token for the whole run.
    const keys = generateRsaKeyPair();
    const suffix = Math.random().toString(36).slice(2, 8);
    const client: ClientIdentity = {
      role: 'bench',
      clientId: `bench-${suffix}`,
      clientSecret: `bench-secret-${suffix}-${Date.now()}`,
      kid: `kid-bench-${suffix}`,
      iss: 'https://bench.bank.example',
      privateKey: keys.privateKey,
      publicPem: keys.publicPem,
    };
    const registered = await post(`${reference.url}/_admin/clients`, { 'content-type': 'application/json' }, JSON.stringify({ clientId: client.clientId, clientSecret: client.clientSecret, kid: client.kid, iss: client.iss, publicKey: client.publicPem }));
    if (registered.status !== 201) throw new Error(`client registration failed: ${registered.status} ${registered.text.slice(0, 300)}`);
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: authenticationJwt(client), scope: 'makePayments' });
    const token = await post(
      `${reference.url}/oauth/token`,
      { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      form.toString(),
    );
    const accessToken = (token.json as { access_token?: unknown } | undefined)?.access_token;
    if (token.status !== 200 || typeof accessToken !== 'string') throw new Error(`token request failed: ${token.status}`);

    // Bodies and SCA JWTs are built before the clock starts: the client's signing cost is measured
    // here, separately, and is not part of the server's latency.
    const items: Submission[] = [];
    const job = { clientId: client.clientId, kid: client.kid, iss: client.iss, privatePem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    const headersFor = (built: Built): Submission => ({
      body: built.body,
      headers: { authorization: `Bearer ${accessToken}`, 'x-client-id': client.clientId, 'content-type': 'application/json', accept: 'application/json', 'sca-token': built.sca },
    });
    const firstBatch = options.quick ? 1_000 : 2_000;
    const t0 = performance.now();
    const first = buildSubmissions(job, 0, firstBatch);
    const buildMs = (performance.now() - t0) / firstBatch;
    items.push(...first.map(headersFor));
    /** The rest on one thread per core: signing is the slow part and it is CPU-bound. */
    const build = async (count: number): Promise<void> => {
      const threads = Math.max(1, os.cpus().length);
      const per = Math.ceil(count / threads);
      const base = items.length;
      const parts = await Promise.all(Array.from({ length: threads }, (_v, i) => buildInWorker(job, base + i * per, per)));
      for (const part of parts) items.push(...part.map(headersFor));
    };

    // Warm-up (JIT, connection set-up), then size the pool from the rate seen so it lasts the run.
    // One pool for warm-up and measurement: connection set-up belongs to the warm-up, not to p99.
    const referencePool = new Pool(reference.url, { connections: CONNECTIONS, pipelining: 1 });
    const warm = await fire(referencePool, submitPath, items, 0, warmupMs, 201);
    const warmRate = warm.ok / (warm.elapsedMs / 1000);
    const cap = options.quick ? 15_000 : 40_000;
    // The warm-up rate is a floor (a cold JIT): size for twice it.
    const needed = Math.min(cap, Math.ceil(warmRate * (durationMs / 1000) * 2) + 200);
    const remaining = items.length - warm.next;
    if (needed > remaining) await build(needed - remaining);
    process.stdout.write(`bench: reference throughput, ${CONNECTIONS} connections, ${durationMs / 1000} s (${items.length - warm.next} submissions pre-built at ${buildMs.toFixed(2)} ms each) … `);
    // The pool was just built (partly on worker threads): collect that garbage now, not in a window.
    (globalThis as { gc?: () => void }).gc?.();
    // Three consecutive windows: on a shared 2-core machine one burst of someone else's work can own a
    // whole p99. The target is judged on the median window; the whole run is printed beside it.
    const windows: Awaited<ReturnType<typeof fire>>[] = [];
    let from = warm.next;
    for (let w = 0; w < WINDOWS; w++) {
      const window = await fire(referencePool, submitPath, items, from, durationMs / WINDOWS, 201);
      windows.push(window);
      from = window.next;
    }
    await referencePool.close();
    const ref = mergeWindows(windows);
    const refRate = ref.ok / (ref.elapsedMs / 1000);
    const medianWindow = [...windows].sort((a, b) => a.p99 - b.p99)[Math.floor(WINDOWS / 2)]!;
    const medianRate = median(windows.map((w) => w.ok / (w.elapsedMs / 1000)));
    console.log(`${refRate.toFixed(0)}/s, p50 ${ref.p50.toFixed(1)} ms, p99 ${ref.p99.toFixed(1)} ms (windows: ${windows.map((w) => `${(w.ok / (w.elapsedMs / 1000)).toFixed(0)}/s p99 ${w.p99.toFixed(1)} ms`).join('; ')})`);
    const otherStatuses = [...ref.statuses].filter(([s]) => s !== 201);
    if (otherStatuses.length || ref.errors) notes.push(`reference answered ${otherStatuses.map(([s, n]) => `${n} × ${s}`).join(', ') || 'no non-201'}${ref.errors ? `, ${ref.errors} transport errors` : ''}`);
    if (ref.exhausted) notes.push(`the pre-built pool ran out after ${seconds(ref.elapsedMs)} (rate over that time)`);
    await stopServer(reference);

    // The same requests to an endpoint that does nothing: the machine's ceiling for this load shape.
    const script = [
      "const app = require('fastify')({ logger: false, bodyLimit: 1048576 });",
      `app.post(${JSON.stringify(submitPath)}, async (_req, reply) => { reply.code(201); return {}; });`,
      "app.listen({ host: '127.0.0.1', port: 0 }).then(() => console.log('fastify listening on port ' + app.server.address().port));",
      "process.on('SIGTERM', () => app.close().then(() => process.exit(0)));",
    ].join('\n');
    fastify = await startServer('bare fastify', ['-e', script], {}, /fastify listening on port (\d+)/);
    const barePool = new Pool(fastify.url, { connections: CONNECTIONS, pipelining: 1 });
    await fire(barePool, submitPath, items, 0, warmupMs, 201, true);
    process.stdout.write(`bench: bare fastify {}, same requests … `);
    const bare = await fire(barePool, submitPath, items, 0, durationMs, 201, true);
    await barePool.close();
    const bareRate = bare.ok / (bare.elapsedMs / 1000);
    console.log(`${bareRate.toFixed(0)}/s, p50 ${bare.p50.toFixed(1)} ms, p99 ${bare.p99.toFixed(1)} ms`);

    const serverRows: ServerRow[] = [
      { server: 'reference (valid pacs.008, JWT + SCA verified)', perSecond: refRate, p50: ref.p50, p99: ref.p99, detail: `${ref.ok} × 201 in ${seconds(ref.elapsedMs)}` },
      { server: 'bare fastify returning {}', perSecond: bareRate, p50: bare.p50, p99: bare.p99, detail: `${bare.ok} × 201 in ${seconds(bare.elapsedMs)}` },
    ];
    const rows: Row[] = [
      { measure: 'reference submissions/s ÷ bare fastify requests/s', value: `${ratio(refRate / bareRate)} (${((refRate / bareRate) * 100).toFixed(0)} %)`, target: '—', ok: undefined },
      { measure: `reference verified pacs.008 per second (median of ${WINDOWS} windows; whole run ${refRate.toFixed(0)}/s)`, value: medianRate.toFixed(0), target: `≥ ${TARGET_RATE}`, ok: medianRate >= TARGET_RATE },
      {
        measure: `reference p99 at ${CONNECTIONS} connections (median of ${WINDOWS} windows: ${windows.map((w) => w.p99.toFixed(1)).join(' / ')} ms; whole run ${ref.p99.toFixed(1)} ms)`,
        value: `${medianWindow.p99.toFixed(1)} ms`,
        target: `< ${TARGET_P99_MS} ms`,
        ok: medianWindow.p99 < TARGET_P99_MS,
      },
      { measure: 'reference p99 ÷ bare fastify p99', value: ratio(ref.p99 / bare.p99), target: '—', ok: undefined },
      { measure: 'client cost to build + sign one submission (body + SCA RS256), not in the above', value: `${buildMs.toFixed(2)} ms (${(1000 / buildMs).toFixed(0)}/s on one core)`, target: '—', ok: undefined },
    ];
    return { rows, serverRows, notes };
  } finally {
    await stopServer(reference);
    if (fastify) await stopServer(fastify);
  }
}

// ── rendering ─────────────────────────────────────────────────────────────────────────────────
interface Row {
  measure: string;
  value: string;
  target: string;
  ok: boolean | undefined;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
const ratio = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'n/a');
const mark = (ok: boolean | undefined): string => (ok === undefined ? '' : ok ? '✓' : '✗');

function table(header: string[], rows: string[][]): string {
  const escape = (s: string): string => s.replace(/\|/g, '\\|');
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(escape).join(' | ')} |`)].join('\n');
}

function render(options: Options, startedAt: Date, totalMs: number, suite: SuiteResults | undefined, tp: ThroughputResults | undefined): string {
  const cpus = os.cpus();
  const lines = [
    '# Bench',
    '',
    `${startedAt.toISOString()} · ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}) · node ${process.version} · ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB · load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}${options.quick ? ' · --quick' : ''} · bench took ${seconds(totalMs)}`,
  ];
  if (suite) {
    lines.push('', '## Conformance run against the reference (`--project=local`, server start included)', '');
    lines.push(
      table(
        ['run', 'wall time', 'passed', 'failed', 'skipped', 'HTTP exchanges', 'peak RSS (tree)'],
        suite.runs.map((m) => [m.label, seconds(m.wallMs), String(m.run.counts.passed), String(m.run.counts.failed), String(m.run.counts.skipped), String(m.exchanges), mib(m.peakRssBytes)]),
      ),
    );
  }
  if (tp) {
    lines.push('', `## Reference throughput (${CONNECTIONS} connections, pre-built requests)`, '');
    lines.push(table(['server', 'requests/s', 'p50', 'p99', 'detail'], tp.serverRows.map((r) => [r.server, r.perSecond.toFixed(0), `${r.p50.toFixed(1)} ms`, `${r.p99.toFixed(1)} ms`, r.detail])));
  }
  const rows = [...(suite?.rows ?? []), ...(tp?.rows ?? [])];
  lines.push('', '## Ratios and targets', '');
  lines.push(table(['measure', 'value', 'target', ''], rows.map((r) => [r.measure, r.value, r.target, mark(r.ok)])));
  const notes = [...(suite?.notes ?? []), ...(tp?.notes ?? [])];
  if (notes.length) lines.push('', '## Notes', '', ...notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

// ── main ──────────────────────────────────────────────────────────────────────────────────────
const loadAtStart = os.loadavg();

function cleanUp(): void {
  removeTemporaryFiles();
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }
  const startedAt = new Date();
  const t0 = performance.now();
  if (loadAtStart[0]! > os.cpus().length * 0.5) console.warn(`bench: load average ${loadAtStart[0]!.toFixed(2)} on ${os.cpus().length} cores: other work is running, numbers will be noisy`);
  try {
    const suite = options.parts.has('suite') ? await suitePart(options) : undefined;
    const tp = options.parts.has('throughput') ? await throughputPart(options) : undefined;
    const text = render(options, startedAt, performance.now() - t0, suite, tp);
    console.log(`\n${text}`);
    mkdirSync(path.join('reports', 'bench'), { recursive: true });
    writeFileSync(path.join('reports', 'bench', 'latest.md'), text);
    console.log('bench: written to reports/bench/latest.md');
    const rows = [...(suite?.rows ?? []), ...(tp?.rows ?? [])];
    // Missed targets are findings to read, not a broken bench: exit 0 unless a measurement failed.
    console.log(`bench: ${rows.filter((r) => r.ok === true).length} targets met, ${rows.filter((r) => r.ok === false).length} missed`);
    return 0;
  } finally {
    cleanUp();
  }
}

if (!isMainThread) {
  const { job, from, count } = workerData as { job: BuildJob; from: number; count: number };
  parentPort!.postMessage(buildSubmissions(job, from, count));
} else {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      cleanUp();
      process.exit(1);
    },
  );
}
