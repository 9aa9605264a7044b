/**
 * Proves that no secret reached a report: the workers write every secret they used (client secrets,
 * private keys, access tokens, assertions, sca-tokens) to a canary file outside the report folders,
 * and this scan looks for each of them in every file under the given folders.
 */
import { existsSync, readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import path from 'node:path';

export interface Leak {
  file: string;
  label: string;
}

function* files(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const st = statSync(full);
    if (st.isDirectory()) yield* files(full);
    else if (st.size < 64 * 1024 * 1024) yield full;
  }
}

/** The strings to look for: whole values, plus each body line of a PEM (a PEM may be re-wrapped). */
function needles(value: string): string[] {
  if (!value.includes('-----BEGIN')) return [value];
  return value.split(/\r?\n/).filter((l) => l.length >= 40 && !l.startsWith('-----'));
}

export function scanForSecrets(canaryFile: string, dirs: string[]): { leaks: Leak[]; secrets: number; files: number } {
  if (!existsSync(canaryFile)) return { leaks: [], secrets: 0, files: 0 };
  const secrets = readFileSync(canaryFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { label: string; value: string });
  const leaks: Leak[] = [];
  let scanned = 0;
  for (const dir of dirs) {
    for (const file of files(dir)) {
      scanned++;
      const content = readFileSync(file).toString('latin1');
      for (const s of secrets) {
        if (needles(s.value).some((n) => content.includes(n))) leaks.push({ file, label: s.label });
      }
    }
  }
  return { leaks, secrets: secrets.length, files: scanned };
}

if (require.main === module) {
  const canary = process.env.PAYMENTS_SECRET_CANARY ?? '';
  const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['reports', 'test-results'];
  const { leaks, secrets, files: count } = scanForSecrets(canary, dirs);
  if (canary) rmSync(canary, { force: true });
  if (leaks.length) {
    for (const leak of leaks) console.error(`✖ secret (${leak.label}) found in ${leak.file}`);
    process.exit(1);
  }
  console.log(`secret scan: ${secrets} secrets, ${count} files under ${dirs.join(', ')}: none found`);
}

export const describeLeak = (leak: Leak): string => `secret (${leak.label}) found in ${leak.file}`;
