/**
 * `node --import tsx tools/bench/history-check.ts <run folder>`: reads and checks a run's
 * history once (what the run's end does) and prints one JSON line: the time it took (wall and CPU), the requests
 * and events judged, and this process's peak resident memory. Run by the bench (history.ts).
 */
import { performance } from 'node:perf_hooks';
import { readRunHistory } from '../../record/history';
import { checkHistory } from '../../checks/history';

const runDir = process.argv[2];
if (!runDir) throw new Error('usage: history-check.ts <run folder>');
const started = performance.now();
const cpu = process.cpuUsage();
const verdicts = [...readRunHistory(runDir).values()].map((workers) => checkHistory(workers));
const ms = Math.round(performance.now() - started);
const spent = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    ms,
    // On a shared machine the wall time waits for a core; the CPU time is what the check itself costs.
    cpuMs: Math.round((spent.user + spent.system) / 1000),
    requests: verdicts.reduce((n, v) => n + v.requests, 0),
    events: verdicts.reduce((n, v) => n + v.events, 0),
    workers: verdicts.reduce((n, v) => n + v.workers, 0),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    status: verdicts.some((v) => v.status === 'failed')
      ? 'failed'
      : verdicts.some((v) => v.status === 'inconclusive')
        ? 'inconclusive'
        : 'passed',
  }),
);
