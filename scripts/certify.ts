/**
 * `npm run certify -- --project <env> [--signing-key <pem path>] [--kid <id>]`
 *
 * Runs the full suite against one environment (known deviations are NOT applied: a certification
 * states what the deployment does, not what we agreed to tolerate) and writes a signed evidence
 * bundle to reports/certification/<UTC timestamp>/:
 *
 *   report.html        the single-file Allure report
 *   summary.json       per ledger rule: passed / failed / skipped (with reasons) / not cited; every test
 *   transcript.jsonl   every HTTP exchange a test attached, redacted
 *   history.json       the run's history judged as one (runner/history.ts): a rule it shows violated failed
 *   profile.json       the profile used (env var names only; anything secret-looking stripped)
 *   suite.json         suite version, git commit + dirty flag, node, seed, run id, start/end
 *   signing-key.pub.pem  the public half of the signing key
 *   manifest.json      SHA-256 of every file above
 *   manifest.jws       compact JWS (RS256) whose payload is manifest.json
 *
 * Verdict CERTIFIED only when every documented rule that applies to the environment passed. The
 * bundle is then scanned for every secret the run used; one found fails the command.
 * Check a bundle later with `npm run verify-evidence -- <dir> [--public-key <pem>]`.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadProfile, ProfileError, type Profile } from '../profile/profile';
import { rules } from '../ledger/rules';
import { grantedCapabilities } from '../ledger/capabilities';
import { runSettings, suiteEnvironment } from '../profile/run-settings';
import {
  MANIFEST_FILE,
  PUBLIC_KEY_FILE,
  SIGNATURE_FILE,
  buildManifest,
  keyFingerprint,
  loadPrivateKeyPem,
  publicPemOf,
  readBundleFiles,
  serialiseManifest,
  signJws,
} from './lib/signing';
import {
  sanitiseProfile,
  summariseRules,
  verdictOf,
  withHistory,
  type RuleResult,
  type Verdict,
} from './lib/certification';
import { historyRecord, judgeRunHistory } from '../runner/history';
import { runPlaywright } from './lib/run-playwright';
import { cliMain } from './lib/cli';
import { renderReport, SPEC_PAGE } from './report';
import { describeLeak, scanForSecrets } from './scan-secrets';
import packageJson from '../package.json';
import { runPaths } from '../record/run-folder';

export interface CertifyOptions {
  project: string;
  signingKey?: string;
  kid?: string;
  /** Parent of the timestamped bundle folder. */
  outRoot?: string;
}

const USAGE = 'usage: npm run certify -- --project <env> [--signing-key <private key PEM path>] [--kid <key id>]';

function parseStrict(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        project: { type: 'string' },
        'signing-key': { type: 'string' },
        kid: { type: 'string' },
        out: { type: 'string' },
      },
      strict: true,
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}: a certification always runs the full suite, unfiltered\n${USAGE}`);
  }
}

export function parseCertifyArgs(argv: string[]): CertifyOptions {
  const parsed = parseStrict(argv);
  const { values } = parsed;
  if (!values.project) throw new Error(`--project is required\n${USAGE}`);
  return {
    project: values.project,
    ...(values['signing-key'] ? { signingKey: values['signing-key'] } : {}),
    ...(values.kid ? { kid: values.kid } : {}),
    ...(values.out ? { outRoot: values.out } : {}),
  };
}

/** 2026-11-22T17-16-22Z: sortable, UTC, and valid in a file name on every OS. */
export const bundleTimestamp = (d: Date): string =>
  d
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

interface SigningKey {
  privateKey: KeyObject;
  kid: string;
  source: 'provided' | 'generated';
}

function signingKey(opts: CertifyOptions): SigningKey {
  if (opts.signingKey) {
    let pem: string;
    try {
      pem = readFileSync(opts.signingKey, 'utf8');
    } catch (error) {
      throw new Error(`cannot read --signing-key ${opts.signingKey}: ${(error as Error).message}`);
    }
    const privateKey = loadPrivateKeyPem(pem, suiteEnvironment().signingKeyPassphrase);
    return { privateKey, kid: opts.kid ?? `sha256:${keyFingerprint(privateKey).slice(0, 16)}`, source: 'provided' };
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
  return { privateKey, kid: opts.kid ?? `ephemeral-${keyFingerprint(privateKey).slice(0, 16)}`, source: 'generated' };
}

/** All transcript files of the run as one JSONL, ordered by time so two runs read alike. */
function mergeTranscripts(dir: string): string {
  if (!existsSync(dir)) return '';
  const lines: { at: string; test: string; line: string }[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const rec = JSON.parse(line) as { startedAt?: string; test?: string };
      lines.push({ at: String(rec.startedAt ?? ''), test: String(rec.test ?? ''), line });
    }
  }
  lines.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.test < b.test ? -1 : a.test > b.test ? 1 : 0));
  return lines.map((l) => `${l.line}\n`).join('');
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Why a rule counts (or not) towards the verdict, for the printed lists. */
const weight = (r: RuleResult): string =>
  r.level !== 'documented'
    ? 'assumption, not required'
    : r.applies
      ? 'documented, required'
      : 'not required on this profile';

function printVerdict(project: string, verdict: Verdict, results: RuleResult[]): void {
  const failed = results.filter((r) => r.status === 'failed');
  const line = '═'.repeat(72);
  console.log(`\n${line}`);
  console.log(
    `  ${verdict.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}: ${project} — ${verdict.passed} of ${verdict.required} applicable documented rules assessed and passed`,
  );
  console.log(line);
  if (failed.length) {
    console.log(`\nFailed rules (${failed.length}; ${verdict.failed.length} block certification):`);
    for (const r of failed) {
      console.log(`  ✖ ${r.id} [${weight(r)}] ${r.statement}`);
      for (const f of (r.failures ?? []).slice(0, 3)) console.log(`      ${f.test}\n        ${f.error}`);
    }
  }
  if (verdict.notAssessed.length) {
    console.log(
      `\nNot assessed (${verdict.notAssessed.length}, block certification): set what each line names, or run npm run discover -- --project ${project}`,
    );
    for (const r of verdict.notAssessed)
      console.log(`  – ${r.id} ${r.statement}\n      ${(r.blockedBy ?? []).join('; ')}`);
  }
  if (verdict.inconclusive.length) {
    console.log(
      `\nInconclusive (infrastructure) (${verdict.inconclusive.length}, block certification): the target's infrastructure answered instead of the API; run again`,
    );
    for (const r of verdict.inconclusive)
      console.log(`  ? ${r.id} ${r.statement}\n      ${(r.blockedBy ?? []).join('; ')}`);
  }
  const notApplicable = results.filter((r) => r.level === 'documented' && r.status === 'not applicable');
  if (notApplicable.length) {
    console.log(
      `\nNot applicable on this profile (${notApplicable.length}, not required): what the provider would have to grant`,
    );
    for (const r of notApplicable)
      console.log(`  · ${r.id}: ${(r.blockedBy ?? ['the profile cannot assess it']).join('; ')}`);
  }
  if (verdict.notCited.length) {
    console.log(
      `\nApplicable documented rules no test cites (${verdict.notCited.length}, block certification): ${verdict.notCited.map((r) => r.id).join(' ')}`,
    );
  }
}

export interface CertifyResult {
  ok: boolean;
  dir?: string;
  verdict?: Verdict;
}

export async function certify(opts: CertifyOptions): Promise<CertifyResult> {
  let profile: Profile;
  try {
    profile = loadProfile(opts.project);
  } catch (error) {
    if (error instanceof ProfileError) {
      console.error(`✖ ${error.message}`);
      return { ok: false };
    }
    throw error;
  }
  // Load (or make) the key before spending minutes on a run that could not be signed.
  const key = signingKey(opts);
  const work = mkdtempSync(path.join(os.tmpdir(), 'payments-certify-'));
  const canary = path.join(work, 'secrets.jsonl');
  // The run has a folder of its own under the temp folder: nothing another run does in this checkout touches it.
  process.env.PAYMENTS_RUN_DIR = path.join(work, 'run');
  const { seed, runId, runDir } = runSettings();
  const files = runPaths(runDir);
  try {
    const startedAt = new Date();
    console.log(
      `certify: running the full suite against ${profile.name} (seed ${seed}, run ${runId}); no deviations applied`,
    );
    const run = await runPlaywright([`--project=${profile.name}`], {
      PAYMENTS_RUN_DIR: runDir,
      PAYMENTS_RUN_ID: runId,
      PAYMENTS_SECRET_CANARY: canary,
      PAYMENTS_ALLURE: '1',
    });
    const endedAt = new Date();
    const tests = run.tests;
    if (!tests.length) {
      console.error(`✖ the run executed no test (playwright exit ${run.exitCode}); no bundle written`);
      return { ok: false };
    }

    const root = opts.outRoot ?? path.join('reports', 'certification');
    let dir = path.join(root, bundleTimestamp(startedAt));
    for (let n = 2; existsSync(dir); n++) dir = path.join(root, `${bundleTimestamp(startedAt)}-${n}`);
    mkdirSync(dir, { recursive: true });

    // Rendered in the work folder (deleted below): only the copies in the bundle are printed. The
    // certification report embeds every exchange, passed tests' too: it is evidence on its own.
    const html = renderReport(files.allureResults, path.join(work, 'allure-report'), {
      print: false,
      evidence: 'full',
    });
    if (html) {
      copyFileSync(html, path.join(dir, 'report.html'));
      copyFileSync(path.join(path.dirname(html), SPEC_PAGE), path.join(dir, SPEC_PAGE)); // the report's spec links
    } else console.error('✖ the Allure report could not be rendered: the bundle has no report.html');

    writeFileSync(path.join(dir, 'transcript.jsonl'), mergeTranscripts(files.transcripts));
    writeFileSync(path.join(dir, 'profile.json'), json(sanitiseProfile(profile)));

    const granted = grantedCapabilities(profile);
    const history = judgeRunHistory(runDir);
    if (history.length) writeFileSync(path.join(dir, 'history.json'), json({ projects: history }));
    const results = withHistory(summariseRules(rules, tests, profile), historyRecord(history));
    const verdict = verdictOf(results);
    const counts = run.counts;
    writeFileSync(
      path.join(dir, 'summary.json'),
      json({
        project: profile.name,
        verdict: verdict.certified ? 'CERTIFIED' : 'NOT CERTIFIED',
        rule: 'CERTIFIED only when every documented rule that applies to the environment was assessed and passed',
        capabilities: [...granted].sort(),
        documentedRules: {
          applicable: verdict.required,
          passed: verdict.passed,
          failed: verdict.failed.map((r) => r.id),
          notAssessed: verdict.notAssessed.map((r) => ({ id: r.id, blockedBy: r.blockedBy })),
          inconclusive: verdict.inconclusive.map((r) => ({ id: r.id, answers: r.blockedBy })),
          notCited: verdict.notCited.map((r) => r.id),
        },
        counts,
        rules: results,
        tests: tests.map((t) => ({ title: `${t.project} › ${t.title}`, tags: t.tags, outcome: t.outcome })),
      }),
    );

    const commit = git(['rev-parse', 'HEAD']);
    const status = git(['status', '--porcelain']);
    writeFileSync(
      path.join(dir, 'suite.json'),
      json({
        suite: { name: packageJson.name, version: packageJson.version },
        git: { commit: commit ?? 'unknown', dirty: status === undefined ? 'unknown' : status.length > 0 },
        node: process.version,
        playwright: packageJson.dependencies['@playwright/test'],
        project: profile.name,
        seed,
        runId,
        startedAt: startedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        playwrightExitCode: run.exitCode,
        deviationsApplied: false,
        signing: {
          kid: key.kid,
          keySource: key.source,
          publicKeySha256: keyFingerprint(key.privateKey),
          proves:
            key.source === 'provided'
              ? 'integrity and origin (holder of the signing key)'
              : 'integrity only: the key was generated for this run',
        },
      }),
    );

    writeFileSync(path.join(dir, PUBLIC_KEY_FILE), publicPemOf(key.privateKey));
    const manifest = serialiseManifest(buildManifest(readBundleFiles(dir)));
    writeFileSync(path.join(dir, MANIFEST_FILE), manifest);
    writeFileSync(path.join(dir, SIGNATURE_FILE), `${signJws(manifest, key.privateKey, key.kid)}\n`);

    printVerdict(profile.name, verdict, results);
    console.log(`\nsuite: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (seed ${seed})`);
    console.log(`evidence bundle: ${path.resolve(dir)}${html ? `\nreport: ${path.resolve(dir, 'report.html')}` : ''}`);
    if (key.source === 'generated') {
      console.log(
        [
          '',
          '!!! ─────────────────────────────────────────────────────────────────────────────',
          '!!!  NO SIGNING KEY GIVEN: the bundle was signed with a key generated for this run.',
          '!!!  Its signature proves INTEGRITY ONLY (the files match the manifest), NOT ORIGIN:',
          '!!!  anyone can re-sign an altered bundle with a new key. For evidence of origin, use',
          '!!!  --signing-key <your private key PEM> and verify with --public-key <your public key>.',
          '!!! ─────────────────────────────────────────────────────────────────────────────',
        ].join('\n'),
      );
    } else {
      console.log(
        `signed with ${opts.signingKey} (kid ${key.kid}); verify with: npm run verify-evidence -- ${dir} --public-key <public key PEM>`,
      );
    }

    // The signing key is a secret too: look for it with the ones the workers used.
    appendFileSync(
      canary,
      `${JSON.stringify({ label: 'evidence signing key', value: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() })}\n`,
      { mode: 0o600 },
    );
    const scan = scanForSecrets(canary, [dir]);
    for (const leak of scan.leaks)
      console.error(`✖ SECRET: ${describeLeak(leak)}: do not share this bundle; delete it`);
    console.log(`secret scan of the bundle: ${scan.secrets} secrets, ${scan.files} files, ${scan.leaks.length} found`);

    const ok = verdict.certified && scan.leaks.length === 0 && Boolean(html);
    return { ok, dir, verdict };
  } finally {
    // The canary holds the run's real secrets: it never outlives the command.
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module)
  cliMain(USAGE, () => certify(parseCertifyArgs(process.argv.slice(2))).then(({ ok }) => ok));
