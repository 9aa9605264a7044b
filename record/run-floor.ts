/**
 * The least time a run against a remote-like target can take: its longest chain of requests one after
 * the other, each a round trip, or, for each of the target's rate limit buckets (each client's
 * requests; the token endpoint's, when it counts them apart, per client or for every client of the
 * address), the requests the bucket let through at its rate, whichever is longest. A rate limit is
 * per client: the busiest client's bucket, not the run's every request, bounds the run. Printed
 * bucket by bucket beside the wall time at the end of a run against a rate limit, so a reader sees
 * how far the run is from what the target allows, and which bucket bounds it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  bucketKey,
  estimatedLimit,
  MIN_REFUSALS_TO_ESTIMATE,
  type LearnedLimit,
  type RequestClass,
  type ScopeState,
  type TokenScope,
} from '../transport/rate-limit';
import { readWorkerFiles, writeWorkerFile } from './worker-files';

/** What a transcript line (transport/transcript.ts exchangeRecord, with its test) says about timing. */
export interface TimedExchange {
  test: string;
  startedAt: string;
  durationMs: number;
  retries?: readonly unknown[];
}

export interface RunFloor {
  /** Requests sent: the workers' count, else the exchanges recorded in the transcripts and their retries. */
  requests: number;
  /** The most requests of one test that ran one after the other (no overlap). */
  criticalPath: number;
  /** The test that has it. */
  criticalTest: string;
  /** The quickest exchange without retries: a round trip with the target's latency. */
  rttMs: number;
  floorMs: number;
  /** Each rate limit bucket's requests, rate and floor (busiest first), when the run knows its buckets. */
  buckets?: BucketFloor[];
}

/** The requests of one class a worker sent, and those the target refused with 429 (they took nothing from the bucket). */
export interface ClassCount extends RequestClass {
  role?: string;
  sent: number;
  refused: number;
}

/** The rate limits a floor is measured against: who plays, declares or learned them, and each bucket's rate. */
export interface LimitModel {
  /** played: the embedded reference's knobs (the target's own limits); declared: the profile's; learned: the run's estimates. */
  source: 'played' | 'declared' | 'learned';
  /** Where token requests count (transport/rate-limit.ts TokenScope). */
  scope: TokenScope;
  /** A client's requests a second (by its fingerprint); undefined: not known. */
  clientRate: (client: string) => number | undefined;
  /** The token endpoint's requests a second, when it is a bucket of its own. */
  tokenRate?: number;
  /** The model in a few words ("40/s per client; token endpoint 20/s per address"). */
  words: string;
}

export interface BucketFloor {
  /** "client primary", "token endpoint (every client)"… */
  name: string;
  /** Requests the bucket let through (sent, less those refused with 429). */
  requests: number;
  rate: number;
  floorMs: number;
}

/**
 * How the floor lines and the learned line name each client the run counted: its role ("primary"),
 * with the end of its fingerprint when the run had two clients of that role (one registered per
 * worker); undefined for a client the run did not count.
 */
export function clientNames(classes: readonly ClassCount[]): (client: string) => string | undefined {
  const roles = new Map<string, string>();
  for (const c of classes) if (!roles.has(c.client)) roles.set(c.client, c.role ?? c.client);
  const clientsOfRole = new Map<string, number>();
  for (const role of roles.values()) clientsOfRole.set(role, (clientsOfRole.get(role) ?? 0) + 1);
  return (client) => {
    const role = roles.get(client);
    if (role === undefined) return undefined;
    return (clientsOfRole.get(role) ?? 0) > 1 ? `${role} ${client.slice(-6)}` : role;
  };
}

/** Each bucket's floor under the model, busiest first; a bucket whose rate is not known is left out. */
export function bucketFloors(classes: readonly ClassCount[], model: LimitModel): BucketFloor[] {
  const nameOf = clientNames(classes);
  const buckets = new Map<string, BucketFloor>();
  for (const c of classes) {
    const key = bucketKey(c, model.scope);
    const token = c.kind === 'token' && model.scope !== 'client';
    const rate = token ? model.tokenRate : model.clientRate(c.client);
    if (!rate) continue;
    const client = nameOf(c.client) ?? c.client;
    const name = token
      ? model.scope === 'address'
        ? 'token endpoint (every client)'
        : `token endpoint (client ${client})`
      : `client ${client}`;
    const entry = buckets.get(key) ?? { name, requests: 0, rate, floorMs: 0 };
    entry.requests += Math.max(0, c.sent - c.refused);
    entry.floorMs = (entry.requests / rate) * 1000;
    buckets.set(key, entry);
  }
  return [...buckets.values()].sort((a, b) => b.floorMs - a.floorMs);
}

/**
 * Names a learned limit's bucket as the floor lines name its client (clientNames); undefined for the
 * token endpoint's bucket of every client, and for a client whose requests the run did not count.
 */
export function learnedBucketNamer(classes: readonly ClassCount[]): (limit: LearnedLimit) => string | undefined {
  const nameOf = clientNames(classes);
  return ({ bucket }) =>
    !bucket || (bucket.kind === 'token' && bucket.per === 'address') ? undefined : nameOf(bucket.client);
}

/** Longest chain of non-overlapping intervals (earliest end first). */
function longestChain(intervals: [number, number][]): number {
  let end = -Infinity;
  let count = 0;
  for (const [start, stop] of [...intervals].sort((a, b) => a[1] - b[1])) {
    if (start >= end) {
      count++;
      end = stop;
    }
  }
  return count;
}

/** Where a worker leaves the number of requests it sent, background work included, and by class (clients by fingerprint). */
export function writeRequestCount(
  dir: string,
  workerIndex: number,
  sent: number,
  classes: readonly ClassCount[] = [],
): void {
  writeWorkerFile(dir, 'requests', workerIndex, { sent, classes });
}

/** Every worker's requests by class, summed over the workers. */
export function readRequestClasses(dir: string): ClassCount[] {
  const files = (readWorkerFiles(dir, 'requests') ?? []) as { classes?: ClassCount[] }[];
  const out = new Map<string, ClassCount>();
  for (const c of files.flatMap((f) => f.classes ?? [])) {
    const id = `${c.origin}\n${c.kind}\n${c.client}`;
    const entry = out.get(id) ?? { ...c, sent: 0, refused: 0 };
    entry.sent += c.sent;
    entry.refused += c.refused;
    out.set(id, entry);
  }
  return [...out.values()];
}

/** Requests every worker of the run sent (retries and background work included); undefined when none wrote its count. */
export function readRequestCounts(dir: string): number | undefined {
  const files = readWorkerFiles(dir, 'requests') as { sent?: unknown }[] | undefined;
  return files?.reduce((sum: number, f) => sum + (Number(f.sent) || 0), 0);
}

/**
 * `limit`: the target's one rate (every request in one bucket), or its buckets' floors (bucketFloors);
 * `sent`: the workers' own count of requests, when known (the transcripts hold only what a test showed).
 */
export function runFloor(
  exchanges: readonly TimedExchange[],
  limit: number | readonly BucketFloor[],
  sent?: number,
): RunFloor | undefined {
  if (!exchanges.length) return undefined;
  const byTest = new Map<string, [number, number][]>();
  let requests = 0;
  let rttMs = Infinity;
  for (const e of exchanges) {
    requests += 1 + (e.retries?.length ?? 0);
    const start = Date.parse(e.startedAt);
    const list = byTest.get(e.test) ?? [];
    list.push([start, start + e.durationMs]);
    byTest.set(e.test, list);
    if (!e.retries?.length) rttMs = Math.min(rttMs, e.durationMs);
  }
  let criticalPath = 0;
  let criticalTest = '';
  for (const [test, intervals] of byTest) {
    const chain = longestChain(intervals);
    if (chain > criticalPath) [criticalPath, criticalTest] = [chain, test];
  }
  if (!Number.isFinite(rttMs)) rttMs = 0;
  requests = Math.max(requests, sent ?? 0);
  const buckets = typeof limit === 'number' ? undefined : [...limit].sort((a, b) => b.floorMs - a.floorMs);
  const rateFloor = buckets ? (buckets[0]?.floorMs ?? 0) : (requests / (limit as number)) * 1000;
  return {
    requests,
    criticalPath,
    criticalTest,
    rttMs,
    floorMs: Math.max(criticalPath * rttMs, rateFloor),
    ...(buckets ? { buckets } : {}),
  };
}

/** Every exchange of a run's transcripts folder (one JSONL file per worker). */
export function readTranscripts(dir: string): TimedExchange[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.flatMap((f) =>
    readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as TimedExchange];
        } catch {
          return [];
        }
      }),
  );
}

/**
 * What the run learned, as a floor reads it: each bucket's rate (measured over the history, else the
 * workers' estimate; a bucket neither measured nor refused MIN_REFUSALS_TO_ESTIMATE times is left
 * out), a client never refused taken to allow what the others do, and the token endpoint's scope;
 * undefined when nothing was learned.
 */
export function learnedModel(
  learned: readonly LearnedLimit[],
  scope: TokenScope,
  measured: (l: LearnedLimit) => number | undefined,
): LimitModel | undefined {
  const rateOf = (l: LearnedLimit): number | undefined =>
    measured(l) ?? (l.source === 'stated' || l.epoch >= MIN_REFUSALS_TO_ESTIMATE ? estimatedLimit(l) : undefined);
  const rated = learned.flatMap((l) => {
    const rate = rateOf(l);
    return rate === undefined ? [] : [{ bucket: l.bucket, rate }];
  });
  const clients = rated.filter((l) => l.bucket === undefined || l.bucket.kind === 'client');
  const tokens = rated.filter((l) => l.bucket?.kind === 'token');
  if (!clients.length && !tokens.length) return undefined;
  const median = (values: number[]): number | undefined =>
    values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] : undefined;
  const byClient = new Map(
    clients.flatMap((l) => (l.bucket?.kind === 'client' ? [[l.bucket.client, l.rate] as const] : [])),
  );
  const typical = median(clients.map((l) => l.rate));
  const tokenRate = median(tokens.map((l) => l.rate));
  return {
    source: 'learned',
    scope,
    clientRate: (client) => byClient.get(client) ?? typical,
    ...(tokenRate !== undefined && scope !== 'client' ? { tokenRate } : {}),
    words: [
      ...(typical !== undefined ? [`≈ ${typical.toFixed(1)}/s per client`] : []),
      scope === 'client'
        ? 'token requests in their client’s bucket'
        : `the token endpoint a bucket of its own${tokenRate !== undefined ? `, ≈ ${tokenRate.toFixed(1)}/s` : ''} ${scope === 'own' ? 'per client' : 'for every client of the address'}`,
    ].join('; '),
  };
}

/** The token endpoint's scope the run's evidence reached furthest: every client of the address, else per client. */
export const widestScope = (scopes: readonly ScopeState[]): TokenScope =>
  scopes.map((s) => s.scope).sort((a, b) => SCOPES.indexOf(b) - SCOPES.indexOf(a))[0] ?? 'client';

const SCOPES: readonly ScopeState['scope'][] = ['client', 'own', 'address'];

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A bucket whose floor prints as 0.0 s. */
const TINY_FLOOR_MS = 50;

/**
 * A floor of buckets in lines: the model, each bucket's requests, rate and floor, the critical path,
 * then the wall time against the largest.
 */
export function describeBucketFloor(floor: RunFloor, model: LimitModel, wallMs: number): string[] {
  // Buckets whose floor is under TINY_FLOOR_MS (a weak-key client's one token request) fold into one line.
  const all = floor.buckets ?? [];
  const buckets = all.filter((b, i) => i === 0 || b.floorMs >= TINY_FLOOR_MS);
  const tiny = all.slice(1).filter((b) => b.floorMs < TINY_FLOOR_MS);
  const width = Math.max(...buckets.map((b) => b.name.length), 0);
  const path = floor.criticalPath * floor.rttMs;
  const largest = path >= (buckets[0]?.floorMs ?? 0) ? 'the critical path' : buckets[0]!.name;
  return [
    `Rate limits (${model.source === 'played' ? 'as the embedded reference plays them' : model.source === 'declared' ? 'as the profile declares them' : 'as the run learned them'}): ${model.words}`,
    ...buckets.map(
      (b) =>
        `  ${b.name.padEnd(width)}  ${String(b.requests).padStart(6)} requests ÷ ${Number(b.rate.toFixed(1))}/s = ${seconds(b.floorMs)}`,
    ),
    ...(tiny.length
      ? [
          `  ${tiny.length} more bucket${tiny.length === 1 ? '' : 's'}, ${tiny.reduce((n, b) => n + b.requests, 0)} requests in all: under ${TINY_FLOOR_MS} ms each`,
        ]
      : []),
    `  critical path ${floor.criticalPath} requests × RTT ${floor.rttMs} ms = ${seconds(path)}`,
    `wall ${seconds(wallMs)}, floor ${seconds(floor.floorMs)} (${largest}): ${(wallMs / floor.floorMs).toFixed(2)}× the floor`,
  ];
}

export function describeFloor(floor: RunFloor, requestsPerSecond: number, wallMs: number): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  return `wall ${s(wallMs)}, floor ${s(floor.floorMs)} = max(critical path ${floor.criticalPath} requests × RTT ${floor.rttMs} ms = ${s(floor.criticalPath * floor.rttMs)}, ${floor.requests} requests ÷ ${requestsPerSecond}/s = ${s((floor.requests / requestsPerSecond) * 1000)}): ${(wallMs / floor.floorMs).toFixed(2)}× the floor`;
}
