/**
 * One Playwright project per selected environment profile (environments/<name>.json; --project,
 * default local), the reference servers they need, and the reporters. Everything else lives in
 * fixtures/: projects.ts (profiles → projects, refusals), reporters/reporters.ts, options.ts.
 */
import os from 'node:os';
import { defineConfig } from '@playwright/test';
import { runSettings } from './helpers/run-settings';
import { projectsFor, referenceServers, selectedProfiles, workerCount } from './fixtures/projects';
import { reportersFor } from './fixtures/reporters/reporters';
import type { RunOptions } from './fixtures/options';
import { runPaths } from './helpers/run-folder';

const settings = runSettings();
const profiles = selectedProfiles(settings);
const servers = referenceServers(profiles, settings);

export default defineConfig<RunOptions>({
  testDir: './tests',
  fullyParallel: true,
  workers: workerCount(profiles, settings, os.cpus().length),
  retries: 0,
  timeout: 60_000,
  forbidOnly: settings.ci,
  globalSetup: './fixtures/global-setup.ts',
  outputDir: runPaths(settings.runDir).outputDir,
  reporter: reportersFor(profiles, settings, settings.clientFaults),
  ...(servers.length ? { webServer: servers } : {}),
  projects: projectsFor(profiles, settings, { faults: settings.clientFaults }),
});
