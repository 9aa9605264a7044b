/**
 * The kill matrix's own config (scripts/mutation.ts writes the plan PAYMENTS_MUTATION_PLAN names):
 * one reference server, the clean project, and one project per fault whose clients the reference
 * registers with that fault alone. A fault project runs the tests citing the fault's rule (on its
 * operation, for a fault that breaks one operation) and stops once it is killed; a fault only the
 * run's history sees runs every test, as a normal run, to its end (its kill is the history's verdict).
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
  /** `history`: a fault only the run's history sees: its project runs every test, as a normal run, and never stops early. */
  faults: { name: string; rule: string; seenBy?: 'history' }[];
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
    ...(plan.scope === 'cited' && !history
      ? { grep: grepFor(fault.rule, op && isOperation(op) ? op : undefined) }
      : {}),
  };
});

export default defineConfig<RunOptions>({
  ...matrixRun(settings, plan.workers),
  webServer: referenceServers([profile], settings),
  projects: [...projectsFor([profile], settings, { evidence: 'minimal' }), ...faultProjects],
});
