/** What the bench leaves behind if it stops half-way: child servers and temporary profiles, undone on exit or signal. */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const children = new Set<ChildProcess>();
const temporaryFiles = new Set<string>();

export const trackChild = (child: ChildProcess): void => void children.add(child);
export const untrackChild = (child: ChildProcess): void => void children.delete(child);
export const trackFile = (file: string): void => void temporaryFiles.add(file);

export function removeTemporaryFiles(): void {
  for (const f of temporaryFiles) rmSync(f, { force: true });
  temporaryFiles.clear();
}

export function cleanUp(): void {
  removeTemporaryFiles();
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
