/** The command line of `npm run bench`. */
export type Part = 'targets' | 'throttled' | 'history' | 'profile' | 'scale' | 'throughput';
export const PARTS: readonly Part[] = ['targets', 'throttled', 'history', 'profile', 'scale', 'throughput'];
/** What a plain `npm run bench` measures: the targets, the throttled sandboxes, the history's check, and where the time goes. */
const DEFAULT_PARTS: readonly Part[] = ['targets', 'throttled', 'history', 'profile'];

export const USAGE =
  'usage: npm run bench [-- --only targets,throttled,history,profile,scale,throughput | --all] [--quick]';

export interface BenchOptions {
  parts: ReadonlySet<Part>;
  /** Shorter throughput windows. */
  quick: boolean;
}

const isPart = (value: string): value is Part => (PARTS as readonly string[]).includes(value);

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const parts = new Set<Part>();
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--all') for (const p of PARTS) parts.add(p);
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      for (const p of (value ?? '').split(',')) {
        if (!isPart(p)) throw new Error(`unknown part "${p}"\n${USAGE}`);
        parts.add(p);
      }
    } else throw new Error(`unknown argument "${arg}"\n${USAGE}`);
  }
  return { parts: parts.size ? parts : new Set(DEFAULT_PARTS), quick };
}
