/**
 * Helpers for the end-to-end unit tests: run a command of this repository as a child process (what a
 * user types), with a clean environment and temporary run, report and history locations, so that a
 * test never touches reports/ of the checkout.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync, randomUUID } from 'node:crypto';

export const root = path.resolve(__dirname, '..', '..', '..');
export const playwrightCli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');

/** Variables a user's shell may hold that would change what a test sees. */
const SCRUB = /^(PAYMENTS_|REF_|CI$|SPEC_URL$)/;
/** But the RSA keys npm test made for all its runs (transport/keys.ts): random either way, and a run then makes none. */
const KEPT = new Set(['PAYMENTS_CLIENT_KEYS']);

export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!SCRUB.test(k) || KEPT.has(k)) env[k] = v;
  return { ...env, ...extra };
}

/** The folders tempDir made in this process (one test file), deleted as it exits. */
const made: string[] = [];
process.once('exit', () => {
  // PAYMENTS_KEEP_TEST_DIRS=1 keeps them, to read what a failing test's runs left.
  if (process.env.PAYMENTS_KEEP_TEST_DIRS !== '1')
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the system's temporary folder, gone when the test file's process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `payments-test-${prefix}-`));
  made.push(dir);
  return dir;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function ran(r: SpawnSyncReturns<string>, started: number): Ran {
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms: Date.now() - started };
}

/** `npm run <script> -- args` without npm: node --require tsx/cjs scripts/<file>.ts args, as package.json runs it. */
export function runScript(file: string, args: string[], env: NodeJS.ProcessEnv, timeout = 120_000): Ran {
  const started = Date.now();
  return ran(
    spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(root, 'scripts', file), ...args], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout,
    }),
    started,
  );
}

/** `npx playwright test args`. */
export function runPlaywrightCli(args: string[], env: NodeJS.ProcessEnv, timeout = 120_000): Ran {
  const started = Date.now();
  return ran(
    spawnSync(process.execPath, [playwrightCli, 'test', ...args], { cwd: root, env, encoding: 'utf8', timeout }),
    started,
  );
}

let dummyKey: string | undefined;
/** An RSA key of no client, made once per process: the runner loads every declared key before it reaches the target. */
const dummyPrivateKey = (): string =>
  (dummyKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString());

/**
 * Dummy values for every secret variable a remote profile names (no real secret is needed to be
 * refused), a loadable key for the private-key variables (a dummy one is refused before the target is reached).
 */
export function dummySecrets(names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((n) => [n, /PRIVATE_KEY$/.test(n) ? dummyPrivateKey() : `dummy-${n.toLowerCase()}`]),
  );
}

export interface SyntheticTest {
  name: string;
  status?: 'passed' | 'failed';
  attachment?: string;
  historyId?: string;
  links?: { name: string; url: string }[];
  /**
   * Exchanges as allure-playwright records them (a step per request holding its attachment's step),
   * in order; `judged`: the one a failed check judged (its failed-answer label). A failed test also
   * gets its failed check and, in After Hooks, its replay.
   */
  exchanges?: { label: string; status: number; judged?: boolean }[];
}

/** Minimal Allure results (what allure-playwright writes): one result file and one attachment per test. */
export function syntheticResults(dir: string, tests: SyntheticTest[]): void {
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  for (const t of tests) {
    const uuid = randomUUID();
    const attachments: { name: string; source: string; type: string }[] = [];
    if (t.attachment !== undefined) {
      const source = `${randomUUID()}-attachment.txt`;
      writeFileSync(path.join(dir, source), t.attachment);
      attachments.push({ name: 'POST /payments/pacs008/v10 → 201', source, type: 'text/plain' });
    }
    const step = (name: string, extra: Record<string, unknown> = {}) => ({
      name,
      status: 'passed',
      stage: 'finished',
      start: now,
      stop: now + 1,
      steps: [],
      attachments: [],
      parameters: [],
      ...extra,
    });
    const attached = (name: string, text: string) => {
      const source = `${randomUUID()}-attachment.txt`;
      writeFileSync(path.join(dir, source), text);
      return {
        name,
        stage: 'finished',
        steps: [],
        attachments: [{ name, source, type: 'text/plain' }],
        parameters: [],
      };
    };
    const steps = [
      ...(t.exchanges ?? []).map((e) =>
        step(`${e.label} — POST /payments/pacs008/v10`, {
          steps: [
            attached(
              `${e.label} — POST /payments/pacs008/v10 → ${e.status}`,
              `POST /payments/pacs008/v10\n${e.status}`,
            ),
          ],
        }),
      ),
      ...(t.exchanges && t.status === 'failed'
        ? [
            step('SCA-09 the submission is refused', { status: 'failed' }),
            step('After Hooks', { steps: [attached('replay', 'rerun:   bash reports/runs/x/replay/t.sh')] }),
          ]
        : []),
    ];
    const judged = (t.exchanges ?? [])
      .filter((e) => e.judged)
      .map((e) => ({ name: 'failed answer', value: `${e.label} — POST /payments/pacs008/v10 → ${e.status}` }));
    writeFileSync(
      path.join(dir, `${uuid}-result.json`),
      JSON.stringify({
        uuid,
        name: t.name,
        fullName: `unit.spec.ts#${t.name}`,
        historyId: t.historyId ?? `h-${t.name}`,
        status: t.status ?? 'passed',
        stage: 'finished',
        start: now,
        stop: now + 5,
        labels: [{ name: 'epic', value: 'Unit' }, ...judged],
        parameters: [],
        links: t.links ?? [],
        steps,
        attachments,
        ...(t.status === 'failed' ? { statusDetails: { message: 'expected 201, got 500' } } : {}),
      }),
    );
  }
}
