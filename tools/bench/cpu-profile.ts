/**
 * A V8 CPU profile (the inspector's Profiler.stop result) read as time per activity: each sample is
 * charged to the activity its stack shows (below).
 */

export interface CallFrame {
  functionName: string;
  url: string;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds, on the profiler's own clock. */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export type Activity =
  | 'idle'
  | 'garbage collection'
  | 'TS transform'
  | 'module loading'
  | 'keys and signing'
  | 'test steps: stack capture'
  | 'evidence: redaction, transcripts'
  | 'ISO 20022 validation'
  | 'report writing'
  | 'HTTP'
  | 'IPC runner ↔ workers'
  | 'reference handlers'
  | 'suite code'
  | 'Playwright'
  | 'other';

interface Matcher {
  activity: Activity;
  matches: (frame: CallFrame) => boolean;
}

/**
 * Activities that own everything under them, looked for anywhere on the stack, in this order: a
 * stack captured for a step is the step's cost wherever it was taken; an RSA sign is signing whoever
 * asked for it; a file the Allure writer fsyncs is report writing.
 */
const ENCLOSING: readonly Matcher[] = [
  { activity: 'idle', matches: (f) => f.functionName === '(idle)' },
  { activity: 'garbage collection', matches: (f) => f.functionName === '(garbage collector)' },
  // Playwright captures and source-maps a stack for every step (evidence 'full').
  {
    activity: 'test steps: stack capture',
    matches: (f) =>
      f.functionName === 'captureRawStack' ||
      (f.functionName === 'prepareStackTrace' && f.url.includes('playwright-core')),
  },
  // tsx and esbuild (the reference, scripts), Playwright's Babel transform (specs, fixtures), and the
  // ESM loader hooks, whose thread does that transform while this one waits.
  {
    activity: 'TS transform',
    matches: (f) =>
      /node_modules\/(tsx|esbuild|get-tsconfig)\/|playwright\/lib\/transform\/|node:internal\/modules\/esm\/hooks/.test(
        f.url,
      ),
  },
  {
    activity: 'keys and signing',
    matches: (f) =>
      /^node:internal\/crypto\/|\/transport\/(keys|jws|client-jwts|x509)\.ts$|node_modules\/jose\/|\/reference\/(jwt-verify|keys|key-use)\.ts$/.test(
        f.url,
      ),
  },
  {
    activity: 'evidence: redaction, transcripts',
    matches: (f) => /\/transport\/(redact|transcript)\.ts$/.test(f.url) || f.functionName === 'writeTranscript',
  },
  // libxml2 and the JSON ↔ XML mapping, the suite's (messages/iso20022/) and the reference's (iso-schema.ts).
  {
    activity: 'ISO 20022 validation',
    matches: (f) => /node_modules\/libxml2-wasm\/|\/messages\/iso20022\/|\/reference\/iso-schema\.ts$/.test(f.url),
  },
  {
    activity: 'report writing',
    matches: (f) =>
      /node_modules\/(allure-playwright|allure-js-commons)\/|playwright\/lib\/reporters\/|\/fixtures\/reporters\//.test(
        f.url,
      ),
  },
];

/** Activities of the innermost frame that names one: a reference handler called by fastify is the handler's time, fastify's own is HTTP. */
const INNERMOST: readonly Matcher[] = [
  {
    activity: 'HTTP',
    matches: (f) =>
      /node_modules\/(undici|fastify|find-my-way|light-my-request|avvio|@fastify)\/|^node:(_http_|net$|internal\/(http|net|deps\/undici|stream_base_commons))|\/transport\/http\.ts$/.test(
        f.url,
      ),
  },
  { activity: 'IPC runner ↔ workers', matches: (f) => /^node:internal\/child_process/.test(f.url) },
  { activity: 'module loading', matches: (f) => /^node:internal\/(modules|bootstrap)\//.test(f.url) },
  { activity: 'reference handlers', matches: (f) => /\/reference\//.test(f.url) },
  {
    activity: 'suite code',
    matches: (f) =>
      /\/(tests|fixtures|profile|transport|messages|record|scripts)\//.test(f.url) && !f.url.includes('node_modules'),
  },
  { activity: 'Playwright', matches: (f) => /node_modules\/(playwright|playwright-core|@playwright)\//.test(f.url) },
];

export const ACTIVITIES: readonly Activity[] = [...ENCLOSING, ...INNERMOST].map((m) => m.activity).concat('other');

/**
 * Milliseconds per activity over the samples taken between `from` and `to` (ms after the profile
 * started; the whole profile by default). A sample lasts until the next one.
 */
export function timeByActivity(profile: CpuProfile, from = 0, to = Number.POSITIVE_INFINITY): Map<Activity, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const cache = new Map<number, Activity>();
  const classify = (id: number): Activity => {
    const known = cache.get(id);
    if (known) return known;
    const stack: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
    const activity =
      ENCLOSING.find((m) => stack.some(m.matches))?.activity ??
      stack.map((frame) => INNERMOST.find((m) => m.matches(frame))?.activity).find((a) => a !== undefined) ??
      'other';
    cache.set(id, activity);
    return activity;
  };
  const out = new Map<Activity, number>();
  let elapsedUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    elapsedUs += profile.timeDeltas[i] ?? 0;
    const ms = elapsedUs / 1000;
    if (ms < from || ms > to) continue;
    const duration = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const activity = classify(profile.samples[i]!);
    out.set(activity, (out.get(activity) ?? 0) + duration);
  }
  return out;
}
