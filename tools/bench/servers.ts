/** Servers the throughput part starts as child processes: the reference, and a bare fastify to compare with. */
import { spawn, type ChildProcess } from 'node:child_process';
import { trackChild, untrackChild } from './cleanup';

export interface Server {
  url: string;
  child: ChildProcess;
}

/** Starts a server as a child process and reads its port from a stdout line. */
export function startServer(
  what: string,
  args: string[],
  env: Record<string, string>,
  portLine: RegExp,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    trackChild(child);
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

export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
  untrackChild(server.child);
}
