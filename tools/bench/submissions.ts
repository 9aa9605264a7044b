/**
 * Valid pacs.008 submissions with their SCA JWTs, built before the clock starts: signing is the
 * client's cost, not the server's. Large pools are built on one worker thread per core; this module is
 * the worker's code too (the bottom of the file).
 */
import { createPrivateKey } from 'node:crypto';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { buildPacs008 } from '../../messages/pacs008';
import { scaJwt, type ClientIdentity } from '../../transport/client-jwts';

export interface BuildJob {
  clientId: string;
  kid: string;
  iss: string;
  privatePem: string;
}
export interface Built {
  body: string;
  sca: string;
}

export function buildSubmissions(job: BuildJob, from: number, count: number): Built[] {
  const key = createPrivateKey(job.privatePem);
  const client: ClientIdentity = {
    role: 'bench',
    clientId: job.clientId,
    clientSecret: '',
    kid: job.kid,
    iss: job.iss,
    privateKey: key,
    publicPem: '',
  };
  const out: Built[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify(buildPacs008({ seed: `bench-${from + i}` }));
    out.push({ body, sca: scaJwt(client, body) });
  }
  return out;
}

/** This module on a worker thread, building one slice of the pool. */
export function buildInWorker(job: BuildJob, from: number, count: number): Promise<Built[]> {
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

if (!isMainThread && (workerData as { job?: BuildJob } | null)?.job) {
  const { job, from, count } = workerData as { job: BuildJob; from: number; count: number };
  parentPort!.postMessage(buildSubmissions(job, from, count));
}
