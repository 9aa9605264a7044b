/** What `npm run bench` measures against, and the run shapes it measures. */

/** A full local run as a person waits for it: `npm run conformance`, every test of the local profile, the report rendered and the secret scan done (median of FULL_RUNS). */
export const TARGET_WALL_S = 10;
export const FULL_RUNS = 3;
/** Peak memory of that run, RSS summed over the process tree, in MB (10^6 bytes). */
export const TARGET_PEAK_MB = 600;
/** One test by its title (TOK-01's valid token request; three tests cite @TOK-01): a one-test run sends only what that test takes. */
export const ONE_TEST_GREP = 'a valid JWT-bearer request gets 200';
export const TARGET_ONE_TEST_REQUESTS = 5;
/** A 10 s settlement delay must overlap: the run grows by at most this much. */
export const SETTLEMENT_DELAY_MS = 10_000;
export const TARGET_ADDED_WALL_S = 12;

/** The same full run given `--reporter=dot`: a reporter flag changes what the terminal shows, not the run. */
export const TARGET_REPORTER_FLAG_PCT = 15;

export const WORKERS = 2;

/** --all: at scale. */
export const LATENCY_MS = 100;
export const LATENCY_WORKERS = 8;
export const TARGET_LATENCY_RATIO = 1.5;
export const SHARDS = 3;

/** --all: the reference's throughput on valid pacs.008 submissions. */
export const CONNECTIONS = 50;
export const WINDOWS = 3;
export const TARGET_RATE = 1_500;
export const TARGET_P99_MS = 50;

/** The run's history (checks/history.ts), read and checked: a full local run's, and a synthetic one of this many events. */
export const TARGET_HISTORY_LOCAL_MS = 1_000;
export const SYNTHETIC_HISTORY_EVENTS = 1_000_000;
export const TARGET_HISTORY_SYNTHETIC_S = 10;

/** The throttled sandboxes (tools/bench/throttled-part.ts): a run within this ratio of its floor. */
export const THROTTLED_FLOOR_RATIO = 1.3;
export const THROTTLED_PROFILES = [
  {
    profile: 'local-sandbox-undeclared-rate',
    what: '40/s per client and the token endpoint 20/s per address, undeclared, Retry-After as an HTTP-date',
  },
  { profile: 'local-sandbox-conditions', what: '50/s per client and the token endpoint 20/s per address, declared' },
] as const;
