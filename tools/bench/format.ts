/** How the bench writes numbers and tables. */
import os from 'node:os';

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
export const ratio = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'n/a');
export const mark = (ok: boolean | undefined): string => (ok === undefined ? '' : ok ? '✓' : '✗');

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const escapeCell = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(escapeCell).join(' | ')} |`),
  ].join('\n');
}

/** The machine's 1-minute load average before and after a measurement: on a shared machine, numbers are read beside it. */
export interface Load {
  before: number;
  after: number;
}

export const loadNow = (): number => os.loadavg()[0]!;
export const loadText = (load: Load): string =>
  `${load.before.toFixed(2)} → ${load.after.toFixed(2)} on ${os.cpus().length} cores`;

/** One line of the targets table. */
export interface Row {
  measure: string;
  value: string;
  target: string;
  ok: boolean | undefined;
  /** The load average while it was measured. */
  load?: Load;
}
