/**
 * The kill matrix's own config (scripts/mutation.ts writes the plan PAYMENTS_MUTATION_PLAN names):
 * one reference server, the clean project (unless an earlier run stands for it), and one project per
 * batch of faults (scripts/lib/fault-batches.ts). A batch project runs the tests citing its faults'
 * rules (on a fault's operation, for a fault that breaks one operation), each test against the one
 * fault it cites, whose clients the reference registers with that fault alone; a fault stops once it
 * is killed. A fault only the run's history sees has a project of its own: it runs the tests of its
 * rule and of the rules that exercise it to their end (its kill may be the history's verdict).
 */
import { readFileSync } from 'node:fs';
import { defineConfig, type Project } from '@playwright/test';
import { runSettings } from './profile/run-settings';
import { loadProfile } from './profile/profile';
import { shareClientKeys } from './transport/keys';
import { leftOut, matrixRun, projectsFor, referenceServers } from './runner/projects';
import { faultGrep, withoutCapabilities, type Fault } from './ledger/kills';
import type { RunOptions } from './fixtures/options';

export interface MutationPlan {
  profile: string;
  /** cited: a fault runs the tests citing its rule; all: every test (one fault a batch). */
  scope: 'cited' | 'all';
  killCap: number;
  workers: number;
  /** Whether the run has the clean project (else scripts/mutation.ts reads it from an earlier run). */
  clean: boolean;
  /** Faults in batches, no two faults of a batch running the same test; a fault only the history sees alone. */
  batches: Fault[][];
  /** Capability switches of the profile turned off for the run (--without). */
  without?: string[];
}

/** The project of a batch: its number, and its fault's name when it holds one. */
export const batchProjectName = (profile: string, batch: readonly Fault[], index: number): string =>
  `${profile}~${batch.length === 1 ? batch[0]!.name : `faults-${String(index + 1).padStart(2, '0')}`}`;

const settings = runSettings();
const plan = JSON.parse(
  readFileSync(settings.mutationPlan ?? 'PAYMENTS_MUTATION_PLAN is unset', 'utf8'),
) as MutationPlan;
const profile = withoutCapabilities(
  loadProfile(plan.profile, undefined, { validated: settings.worker }),
  plan.without ?? [],
);
if (!settings.listing) shareClientKeys();

/** A batch of one fault only the run's history sees: no kill cap, so observations and the pool start as in a normal run. */
const seenByHistory = (batch: readonly Fault[]): boolean => batch.length === 1 && batch[0]!.seenBy === 'history';

const batchProjects: Project<RunOptions>[] = plan.batches.map((batch, i) => ({
  name: batchProjectName(profile.name, batch, i),
  testDir: './tests',
  testIgnore: ['**/unit/**'],
  // One worker a batch: its tests run in order, so each fault's tests keep the order they have alone.
  workers: 1,
  // Like the clean project: the @explore tests only when the run explores (PAYMENTS_EXPLORE=1).
  ...leftOut({ slow: false, exploring: settings.exploring }),
  use: { profile, faultBatch: batch, killCap: seenByHistory(batch) ? 0 : plan.killCap, evidence: 'minimal' },
  ...(plan.scope === 'cited' ? { grep: new RegExp(batch.map((f) => faultGrep(f).source).join('|')) } : {}),
}));

export default defineConfig<RunOptions>({
  ...matrixRun(settings, plan.workers),
  webServer: referenceServers([profile], settings),
  projects: [...(plan.clean ? projectsFor([profile], settings, { evidence: 'minimal' }) : []), ...batchProjects],
});
