/**
 * How long the target takes to settle, read off discovery's own exchanges: from each accepted
 * submission's answer to the first status read of its id that shows a final code (ISO's classes:
 * discovery has no status list yet). §2.3 says only that requests are "stored for a while before
 * settlement"; the profile's polling.timeoutMs is how long the run waits (STS-18, an assumption), and
 * a wait shorter than the target's settlement blocks every test that needs a settled payment.
 */
import type { Exchange } from '../../transport/http';
import { classifyStatus } from '../../profile/status-vocabulary';
import { createdIdIn, firstStatusEntry } from '../../messages/answers';

export const POLLING_TIMEOUT_FIELD = ['polling', 'timeoutMs'] as const;

const NO_STATUS_LIST = { statusCodes: { pending: [], accepted: [], rejected: [], cancelled: [] } };

export interface SettlementMeasurement {
  /** Submissions followed to a final status. */
  followed: number;
  /** The longest of them, from the submission's answer to the first final read (an upper bound: reads are spaced). */
  longestMs?: number;
}

/** Each id a 2xx POST answered with, then the first read (a GET whose path ends with that id) final by ISO's table. */
export function measureSettlement(sent: readonly Exchange[], idFields: readonly string[]): SettlementMeasurement {
  const answeredAt = new Map<string, number>();
  const settledAfter = new Map<string, number>();
  for (const ex of sent) {
    const at = Date.parse(ex.startedAt) + ex.durationMs;
    const ok = ex.response.status >= 200 && ex.response.status < 300;
    if (!ok || Number.isNaN(at)) continue;
    if (ex.request.method === 'POST') {
      const id = createdIdIn(idFields, ex.response);
      if (id && !answeredAt.has(id)) answeredAt.set(id, at);
      continue;
    }
    if (ex.request.method !== 'GET') continue;
    const id = decodeURIComponent(new URL(ex.request.url).pathname.split('/').at(-1) ?? '');
    const since = answeredAt.get(id);
    if (since === undefined || settledAfter.has(id)) continue;
    const txSts = firstStatusEntry(ex.response.json)?.txSts;
    const statusClass = classifyStatus(typeof txSts === 'string' ? txSts : undefined, NO_STATUS_LIST);
    if (statusClass && statusClass !== 'pending') settledAfter.set(id, at - since);
  }
  const times = [...settledAfter.values()];
  return { followed: times.length, ...(times.length ? { longestMs: Math.max(...times) } : {}) };
}

/**
 * The wait a run needs: twice the longest settlement discovery saw and two seconds more (a full run
 * loads the target more than discovery does), in whole seconds.
 */
export function neededTimeoutMs(longestMs: number): number {
  return Math.ceil((2 * longestMs + 2_000) / 1_000) * 1_000;
}

/** The lines discover prints, and the polling.timeoutMs `--write` sets: never lower than the profile's. */
export function settlementVerdict(profileJson: unknown, m: SettlementMeasurement): { lines: string[]; adopt?: number } {
  const declared = (profileJson as { polling?: { timeoutMs?: unknown } }).polling?.timeoutMs;
  const field = POLLING_TIMEOUT_FIELD.join('.');
  if (m.longestMs === undefined)
    return { lines: [`settlement: no submission was followed to a final status; ${field} kept`] };
  const needed = neededTimeoutMs(m.longestMs);
  const lines = [
    `settlement: ${m.followed} submission${m.followed === 1 ? '' : 's'} followed to a final status, the longest in ${(m.longestMs / 1000).toFixed(1)} s`,
  ];
  if (typeof declared === 'number' && declared >= needed) {
    lines.push(`  ✓ ${field}  profile ${declared}; at least the ${needed} a run needs`);
    return { lines };
  }
  lines.push(
    `  ≈ ${field}  profile ${typeof declared === 'number' ? declared : '—'}, shorter than the ${needed} a run needs (STS-18) → --write sets ${needed}`,
  );
  return { lines, adopt: needed };
}
