/**
 * One small JSON file per worker in a run's folder (its request count, what it created), written when
 * the worker stops and summed by the runner's reporters: workers share no memory with the runner.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const fileName = (kind: string, workerIndex: number): string => `${kind}-w${workerIndex}.json`;

export function writeWorkerFile(dir: string, kind: string, workerIndex: number, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, fileName(kind, workerIndex)), `${JSON.stringify(value)}\n`);
}

/** Every worker's file of this kind, parsed; undefined when no worker wrote one. */
export function readWorkerFiles(dir: string, kind: string): unknown[] | undefined {
  const pattern = new RegExp(`^${kind}-w\\d+\\.json$`);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => pattern.test(f));
  } catch {
    return undefined;
  }
  if (!files.length) return undefined;
  return files.map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as unknown);
}
