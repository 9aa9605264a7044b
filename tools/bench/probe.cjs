/**
 * Preloaded (`--require`, through NODE_OPTIONS) into every Node process of a benched run: the
 * runner, its workers, the reference. When PAYMENTS_BENCH_PROBE names a folder, it profiles the
 * process's CPU from its start (V8's sampling profiler: Node 20 refuses --cpu-prof in NODE_OPTIONS)
 * and records every HTTP request it sends through undici (undici's diagnostics channels: when it
 * went out, when its answer's headers came back). At exit it writes <pid>.cpuprofile and <pid>.json
 * there: which process it was, when it started (performance.timeOrigin, epoch ms) and ended, the CPU
 * time and the peak RSS it spent (its threads included), and its requests. It changes nothing else. Plain CommonJS: it loads before any TypeScript hook. Read by
 * tools/bench/probe.ts.
 */
'use strict';
const diagnostics = require('node:diagnostics_channel');
const inspector = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const dir = process.env.PAYMENTS_BENCH_PROBE;
if (dir && require('node:worker_threads').isMainThread) {
  const now = () => performance.timeOrigin + performance.now();
  // PAYMENTS_BENCH_PROBE_CPU=0: the requests and CPU times only (a test that counts them needs no
  // profile); so too a process that has no inspector (node --test's own process). A worker thread (a
  // loader's hooks) writes nothing: its exit is not the process's, and it shares the process's pid.
  let session = null;
  if (process.env.PAYMENTS_BENCH_PROBE_CPU !== '0') {
    try {
      session = new inspector.Session();
      session.connect();
      session.post('Profiler.enable');
      session.post('Profiler.start');
    } catch {
      session = null;
    }
  }

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
    const marks = { pid: process.pid, ppid: process.ppid, cpu: process.cpuUsage(), maxRssKb: process.resourceUsage().maxRSS, argv: process.argv.slice(1), workerIndex: process.env.TEST_WORKER_INDEX ?? null, startedAt: performance.timeOrigin, endedAt: now(), requests };
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(marks));
    // The inspector answers a session's call before post returns: the profile is written before the process goes.
    session?.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
