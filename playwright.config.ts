/**
 * One Playwright project per selected environment profile (environments/<name>.json; --project,
 * default local), the reference servers they need, and the reporters: what the terminal shows (the
 * `reporter` list, which --reporter replaces) and the run's record (kept whatever --reporter says).
 * Everything else lives in fixtures/: projects.ts (profiles → projects, refusals), reporters/, options.ts.
 */
import os from 'node:os';
import { defineConfig } from '@playwright/test';
import { runSettings } from './profile/run-settings';
import { projectsFor, referenceServers, selectedProfiles, workerCount } from './runner/projects';
import { consoleReporters, recordOptions } from './runner/reporters/reporters';
import { keepRecord } from './runner/reporters/keep-record';
import type { RunOptions } from './fixtures/options';
import { runPaths } from './record/run-folder';

const settings = runSettings();
const profiles = selectedProfiles(settings);
const servers = referenceServers(profiles, settings);
// The runner keeps the run's record whatever --reporter says (runner/reporters/record.ts); a listing keeps none.
if (!settings.worker && !settings.listing) keepRecord(recordOptions(profiles, settings, settings.clientFaults));

export default defineConfig<RunOptions>({
  testDir: './tests',
  fullyParallel: true,
  workers: workerCount(profiles, settings, os.cpus().length),
  retries: 0,
  timeout: 60_000,
  forbidOnly: settings.ci,
  globalSetup: './runner/global-setup.ts',
  outputDir: runPaths(settings.runDir).outputDir,
  reporter: consoleReporters(profiles, settings),
  ...(servers.length ? { webServer: servers } : {}),
  projects: projectsFor(profiles, settings, { faults: settings.clientFaults }),
});
