/**
 * The kill matrix's own config (scripts/mutation.ts writes the plan PAYMENTS_MUTATION_PLAN names):
 * one reference server, the clean project, and one project per fault whose clients the reference
 * registers with that fault alone. A fault project runs the tests citing the fault's rule (on its
 * operation, for a fault that breaks one operation) and stops once it is killed; a fault only the
 * run's history sees runs them, and the tests of the rules that exercise it, to their end (its kill
 * may be the history's verdict).
 */
import { readFileSync } from 'node:fs';
import { defineConfig, type Project } from '@playwright/test';
import { runSettings } from './helpers/run-settings';
import { loadProfile } from './helpers/profile';
import { shareClientKeys } from './helpers/keys';
import { leftOut, matrixRun, projectsFor, referenceServers } from './runner/projects';
import { grepFor } from './ledger/tags';
import { isOperation } from './ledger/operations';
import type { RunOptions } from './fixtures/options';

export interface MutationPlan {
  profile: string;
  /** cited: a fault project runs the tests citing its rule; all: every test. */
  scope: 'cited' | 'all';
  killCap: number;
  workers: number;
  /**
   * `history`: a fault only the run's history sees: its project runs the tests of its rule and of the
   * rules that exercise it, to their end (no kill cap, so observations and the pool start as in a normal run).
   */
  faults: { name: string; rule: string; seenBy?: 'history'; exercisedBy?: readonly string[] }[];
}

const settings = runSettings();
const plan = JSON.parse(
  readFileSync(settings.mutationPlan ?? 'PAYMENTS_MUTATION_PLAN is unset', 'utf8'),
) as MutationPlan;
const profile = loadProfile(plan.profile, undefined, { validated: settings.worker });
if (!settings.listing) shareClientKeys();

const faultProjects: Project<RunOptions>[] = plan.faults.map((fault) => {
  const op = fault.name.split('@')[1];
  const history = fault.seenBy === 'history';
  return {
    name: `${profile.name}~${fault.name}`,
    testDir: './tests',
    testIgnore: ['**/unit/**'],
    // One worker a fault: a worker's start (Playwright's modules, the fixtures' setup) costs more than
    // the few tests a fault runs, and the other fault projects keep the other cores busy.
    workers: 1,
    // Like the clean project: the @explore tests only when the run explores (PAYMENTS_EXPLORE=1).
    ...leftOut({ slow: false, exploring: settings.exploring }),
    use: {
      profile,
      faults: [fault.name],
      killCap: history ? 0 : plan.killCap,
      faultRule: fault.rule,
      evidence: 'minimal',
    },
    ...(plan.scope === 'cited'
      ? {
          grep: [
            grepFor(fault.rule, op && isOperation(op) ? op : undefined),
            ...(fault.exercisedBy ?? []).map((rule) => grepFor(rule)),
          ],
        }
      : {}),
  };
});

export default defineConfig<RunOptions>({
  ...matrixRun(settings, plan.workers),
  webServer: referenceServers([profile], settings),
  projects: [...projectsFor([profile], settings, { evidence: 'minimal' }), ...faultProjects],
});
