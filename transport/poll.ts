/** Bounded polling with exponential backoff; intervals and the deadline come from the profile. */
export interface PollOptions<T = unknown> {
  intervalMs: number;
  maxIntervalMs: number;
  timeoutMs: number;
  /**
   * How long the value just read asks to be left alone before the next read, when that is longer
   * than the backoff's interval: a value that must hold for some time is read again once that time
   * is up, not at every interval meanwhile (never past the deadline).
   */
  quietMs?: (value: T) => number | undefined;
}

export interface PollResult<T> {
  value: T;
  attempts: number;
  elapsedMs: number;
  /** Every value seen, oldest first: monotonicity checks need the whole history. */
  history: T[];
}

export class PollTimeoutError<T> extends Error {
  override name = 'PollTimeoutError';
  constructor(
    message: string,
    readonly history: T[],
  ) {
    super(message);
  }
}

export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: PollOptions<T>,
  what = 'condition',
): Promise<PollResult<T>> {
  const started = Date.now();
  const history: T[] = [];
  let interval = options.intervalMs;
  for (;;) {
    const value = await read();
    history.push(value);
    if (done(value)) return { value, attempts: history.length, elapsedMs: Date.now() - started, history };
    if (Date.now() - started + interval > options.timeoutMs) {
      throw new PollTimeoutError(
        `${what} not reached within ${options.timeoutMs} ms (${history.length} polls)`,
        history,
      );
    }
    const quiet = Math.min(options.quietMs?.(value) ?? 0, options.timeoutMs - (Date.now() - started));
    await new Promise((r) => setTimeout(r, Math.max(interval, quiet)));
    interval = Math.min(options.maxIntervalMs, Math.ceil(interval * 1.6));
  }
}
