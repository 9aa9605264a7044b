/**
 * The dialect matrix's own config (scripts/dialect-matrix.ts writes the plan PAYMENTS_DIALECT_PLAN
 * names): one project per generated profile of the plan's folder, all against one reference
 * (REF_URL, started by the script; each project registers its clients in its profile's dialect), with
 * minimal evidence: the matrix is read by a script, not by a person.
 */
import { readFileSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { runSettings } from './profile/run-settings';
import { loadProfile } from './profile/profile';
import { shareClientKeys } from './transport/keys';
import { matrixRun, projectsFor, referenceServers } from './runner/projects';
import type { RunOptions } from './fixtures/options';
import type { RowGroup } from './arrange/row-group';

export interface DialectPlan {
  /** Folder of the generated profiles (<name>.json). */
  dir: string;
  /** The profiles to run, one project each. */
  profiles: string[];
  workers: number;
  /** With --split-rows or --split-lanes: the group whose table-driven tests a project runs, by project name. */
  rowGroups?: Record<string, RowGroup>;
}

const settings = runSettings();
const plan = JSON.parse(readFileSync(settings.dialectPlan ?? 'PAYMENTS_DIALECT_PLAN is unset', 'utf8')) as DialectPlan;
const profiles = plan.profiles.map((name) => loadProfile(name, plan.dir, { validated: settings.worker }));
if (!settings.listing) shareClientKeys();

export default defineConfig<RunOptions>({
  ...matrixRun(settings, plan.workers),
  webServer: referenceServers(profiles, settings),
  // One worker a dialect: a worker starts once per project, not once per project and worker.
  // A project's tests run in one worker anyway: one group per file, not per test, binds a file's
  // tests to their project once (Playwright hashes every test of the file for each group it runs).
  fullyParallel: false,
  // tests/versions holds a further path version to what the spec documents only, which no dialect's
  // choice changes: the conformance runs of npm test cover it.
  projects: projectsFor(profiles, settings, { evidence: 'minimal' }).map((project) => ({
    ...project,
    workers: 1,
    testIgnore: ['**/unit/**', '**/versions/**'],
    use: { ...project.use, rowGroup: plan.rowGroups?.[project.name!] },
  })),
});
