/**
 * The bench's own parts that can be wrong without a full run: its command line, how a CPU profile
 * is read as activities, the probe it preloads into every process of a run, how it reads the
 * floor a throttled run prints, and how it spreads the framework floor's empty tests over files.
 * Run: node --import tsx --test tests/unit/tools/bench.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBenchArgs } from '../../../tools/bench/options';
import { timeByActivity, type CpuProfile } from '../../../tools/bench/cpu-profile';
import { isoShareRow, processRow } from '../../../tools/bench/profile-part';
import type { Breakdown } from '../../../tools/bench/breakdown';
import { probeEnvironment, readProbe, type ProbedProcess } from '../../../tools/bench/probe';
import { root } from '../support/cli';
import { floorLines } from '../../../tools/bench/throttled-part';
import { testsPerFile } from '../../../tools/bench/framework-floor';

test('command line: targets, the throttled sandboxes, history and profile by default, --all adds scale and throughput, unknown parts refused', () => {
  assert.deepEqual([...parseBenchArgs([]).parts], ['targets', 'throttled', 'history', 'profile']);
  assert.deepEqual(
    [...parseBenchArgs(['--all']).parts],
    ['targets', 'throttled', 'history', 'profile', 'scale', 'throughput'],
  );
  assert.deepEqual([...parseBenchArgs(['--only', 'scale,throughput']).parts], ['scale', 'throughput']);
  assert.equal(parseBenchArgs(['--only=throughput', '--quick']).quick, true);
  assert.throws(() => parseBenchArgs(['--only', 'speed']), /unknown part "speed"/);
});

test('a CPU profile read as activities: the enclosing step, signing or writer wins; else the innermost code', () => {
  const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
    id,
    callFrame: { functionName, url },
    children,
  });
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 3, 5, 8, 10, 11]),
      frame(2, '(idle)', ''),
      frame(
        3,
        'writeFile',
        'file:///x/node_modules/allure-js-commons/dist/cjs/sdk/reporter/writer/FileSystemWriter.js',
        [4],
      ),
      frame(4, 'fsyncSync', 'node:fs'),
      frame(5, 'scaJwt', 'file:///x/transport/client-jwts.ts', [6]),
      frame(6, 'sign', 'node:internal/crypto/sig', [7]),
      frame(7, 'signOneShot', ''),
      frame(8, 'runPreHandlers', 'file:///x/node_modules/fastify/lib/route.js', [9]),
      frame(9, 'validatePacs008', 'file:///x/reference/validate/pacs008.ts'),
      frame(10, 'captureRawStack', 'file:///x/node_modules/playwright-core/lib/coreBundle.js'),
      frame(11, '(garbage collector)', ''),
    ],
    startTime: 0,
    endTime: 70_000,
    // Each sample lasts until the next one: 10 ms apiece.
    samples: [2, 4, 7, 9, 8, 10, 11],
    timeDeltas: [0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000],
  };
  const byActivity = Object.fromEntries(timeByActivity(profile));
  assert.deepEqual(byActivity, {
    idle: 10,
    'report writing': 10,
    'keys and signing': 10,
    'reference handlers': 10,
    HTTP: 10,
    'test steps: stack capture': 10,
    'garbage collection': 0,
  });
  assert.deepEqual(
    Object.fromEntries(timeByActivity(profile, 15, 35)),
    { 'keys and signing': 10, 'reference handlers': 10 },
    'a window of the profile',
  );
});

test('ISO 20022 validation’s share: its CPU over every process’s busy CPU, idle left out', () => {
  const b = {
    cpu: [
      { activity: 'idle', runner: 9000, workers: 9000, reference: 9000 },
      { activity: 'HTTP', runner: 1000, workers: 10_000, reference: 4000 },
      { activity: 'ISO 20022 validation', runner: 0, workers: 800, reference: 200 },
    ],
  } as unknown as Breakdown;
  const row = isoShareRow(b, { before: 1, after: 2 });
  assert.equal(row.value, '1.00 of 16.0 CPU-s = 6.3 %');
  assert.equal(row.ok, false);
  const lighter = { cpu: b.cpu.map((r) => (r.activity === 'HTTP' ? { ...r, workers: 30_000 } : r)) } as Breakdown;
  assert.equal(isoShareRow(lighter, { before: 1, after: 2 }).ok, true, '1 of 36 CPU-s: 2.8 %');
});

test('the process row: CPU summed per kind, the largest peak of each kind', () => {
  const process = (kind: ProbedProcess['kind'], cpuSeconds: number, peakMiB: number) =>
    ({ kind, cpuSeconds, peakRssBytes: peakMiB * 1024 * 1024 }) as ProbedProcess;
  const row = processRow(
    [process('runner', 8, 270), process('worker', 11, 300), process('worker', 12, 280), process('reference', 5, 95)],
    { before: 1, after: 2 },
  );
  assert.equal(
    row.value,
    'runner 8.0 CPU-s, peak 270 MiB; 2 workers 23.0 CPU-s, peak 300 MiB (the largest); reference 5.0 CPU-s, peak 95 MiB',
  );
});

test('the probe records a process, its CPU profile and its requests through undici', async () => {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-probe-'));
  try {
    const code = `require('undici').request('http://127.0.0.1:${port}/hello').then((r) => r.body.dump())`;
    const child = spawn(process.execPath, ['-e', code], {
      cwd: root,
      env: { ...process.env, ...probeEnvironment(dir) },
      stdio: 'ignore',
    });
    assert.equal(await new Promise((resolve) => child.on('close', resolve)), 0);
    const [probed] = readProbe(dir);
    assert.ok(probed, 'the probe wrote nothing');
    assert.equal(probed.kind, 'other');
    assert.deepEqual(
      probed.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`),
      ['GET /hello'],
    );
    assert.ok(probed.requests[0]!.answeredAt! >= probed.requests[0]!.sentAt);
    assert.ok(probed.endedAt > probed.startedAt);
    assert.ok(probed.profile && probed.profile.samples.length > 0, 'no CPU profile');
    assert.ok(probed.cpuSeconds > 0 && probed.peakRssBytes > 1024 * 1024, 'the CPU and memory the system counted');
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the throttled sandboxes: the floor lines the run printed, and its ratio', async () => {
  const output = [
    'seed 1 (replay: PAYMENTS_SEED=1 …)',
    'Rate limits (as the embedded reference plays them): 40/s per client; the token endpoint a bucket of its own, 20/s for every client of the address',
    '  client primary                  2308 requests ÷ 40/s = 57.7 s',
    '  critical path 8 requests × RTT 51 ms = 0.4 s',
    'wall 69.2 s, floor 57.7 s (client primary): 1.20× the floor',
    '650 passed, 0 failed, 13 skipped',
  ].join('\n');
  const { lines, ratio } = floorLines(output);
  assert.equal(ratio, 1.2);
  assert.equal(lines.length, 4);
  assert.deepEqual(floorLines('nothing').lines, []);
});

test('the framework floor: as many empty tests as the run, spread over as many files, none lost', () => {
  assert.deepEqual(testsPerFile(1005, 21), [...Array(18).fill(48), ...Array(3).fill(47)]);
  assert.equal(
    testsPerFile(1005, 21).reduce((a, b) => a + b, 0),
    1005,
  );
  assert.deepEqual(testsPerFile(3, 5), [1, 1, 1, 0, 0]);
});
