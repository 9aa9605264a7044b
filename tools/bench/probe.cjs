/**
 * Preloaded (`--require`, through NODE_OPTIONS) into every Node process of a benched run: the
 * runner, its workers, the reference. When PAYMENTS_BENCH_PROBE names a folder, it profiles the
 * process's CPU from its start (V8's sampling profiler: Node 20 refuses --cpu-prof in NODE_OPTIONS)
 * and records every HTTP request it sends through undici (undici's diagnostics channels: when it
 * went out, when its answer's headers came back). At exit it writes <pid>.cpuprofile and <pid>.json
 * there: which process it was, when it started (performance.timeOrigin, epoch ms) and ended, and its
 * requests. It changes nothing else. Plain CommonJS: it loads before any TypeScript hook. Read by
 * tools/bench/probe.ts.
 */
'use strict';
const diagnostics = require('node:diagnostics_channel');
const inspector = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const dir = process.env.PAYMENTS_BENCH_PROBE;
if (dir) {
  const now = () => performance.timeOrigin + performance.now();
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  // PAYMENTS_BENCH_PROBE_CPU=0: the requests only (a test that counts them needs no profile).
  if (process.env.PAYMENTS_BENCH_PROBE_CPU !== '0') session.post('Profiler.start');

  const requests = [];
  const pending = new WeakMap();
  diagnostics.subscribe('undici:request:create', ({ request }) => {
    const entry = { method: request.method, url: `${request.origin}${request.path}`, sentAt: now(), answeredAt: null };
    pending.set(request, entry);
    requests.push(entry);
  });
  diagnostics.subscribe('undici:request:headers', ({ request }) => {
    const entry = pending.get(request);
    if (entry) entry.answeredAt = now();
  });

  process.on('exit', () => {
    mkdirSync(dir, { recursive: true });
    const marks = { pid: process.pid, ppid: process.ppid, argv: process.argv.slice(1), workerIndex: process.env.TEST_WORKER_INDEX ?? null, startedAt: performance.timeOrigin, endedAt: now(), requests };
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(marks));
    // The inspector answers a session's call before post returns: the profile is written before the process goes.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
