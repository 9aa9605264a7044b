/**
 * The embedded reference as a child process of a script (discovery, the dialect matrix): started the
 * way Playwright's webServer starts it (runner/projects.ts), on a free loopback port, with a
 * profile's REF_* knobs. The scripts never import reference/ code: they start it and talk to it.
 */
import { spawn } from 'node:child_process';
import { REFERENCE_LISTENING, REFERENCE_NODE_ARGS } from '../../runner/projects';

export interface ReferenceProcess {
  url: string;
  stop(): Promise<void>;
}

export function startReferenceProcess(env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ReferenceProcess> {
  const child = spawn(process.execPath, [...REFERENCE_NODE_ARGS], {
    env: { ...process.env, REF_HOST: '127.0.0.1', REF_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let settled = false;
    const fail = (message: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${message}${err ? `\n${err.slice(-2000)}` : ''}`)));
    };
    const timer = setTimeout(
      () => fail(`the reference did not report its port within ${timeoutMs / 1000} s`),
      timeoutMs,
    );
    child.stdout.on('data', (d: Buffer) => {
      if (settled) return; // keep draining: a full pipe would block the child
      out += d.toString();
      const port = REFERENCE_LISTENING.exec(out)?.[1];
      if (port) {
        settled = true;
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}`, stop });
      }
    });
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child.once('exit', (code) => fail(`the reference exited (code ${code}) before listening`));
  });
}
