/**
 * Proves that no secret reached a report: the workers write every secret they used (client secrets,
 * private keys, access tokens, assertions, sca-tokens, the run's fingerprint key) to a canary file
 * outside the report folders, and this scan looks for each of them in every file under the given
 * folders, and inside everything those files embed as base64: the single-file Allure report carries
 * every attachment and every data file as a base64 string (`d("data/attachments/…","<base64>")`), and
 * data: URIs are base64 too. Decoded content is searched again, down to MAX_DEPTH levels.
 */
import { existsSync, readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import path from 'node:path';
import { suiteEnvironment } from '../profile/run-settings';

export interface Leak {
  file: string;
  label: string;
  /** Where in the file: "plain text", or the embedded item it was decoded from. */
  where: string;
}

export interface Secret {
  label: string;
  value: string;
}

function* files(dir: string): Generator<string> {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) {
    yield dir;
    return;
  }
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const st = statSync(full);
    if (st.isDirectory()) yield* files(full);
    else if (st.size < 256 * 1024 * 1024) yield full;
  }
}

/** The strings to look for: whole values, plus each body line of a PEM (a PEM may be re-wrapped). */
function needles(value: string): string[] {
  if (!value.includes('-----BEGIN')) return [value];
  return value.split(/\r?\n/).filter((l) => l.length >= 40 && !l.startsWith('-----'));
}

const PREFIX = 6;
const hashOf = (text: string, at: number): number => {
  let h = 0;
  for (let k = 0; k < PREFIX; k++) h = (Math.imul(h, 31) + text.charCodeAt(at + k)) | 0;
  return h;
};

/**
 * Finds which of many secrets occur in a text in one pass: a rolling hash of every 6-character window
 * is looked up among the secrets' first 6 characters, and only a hit is compared in full. Thousands of
 * secrets over a whole report cost about one pass, not one pass each.
 */
export class SecretMatcher {
  private readonly byPrefix = new Map<number, { needle: string; secret: number }[]>();
  /** One bit per prefix hash (its low 20 bits): a window whose bit is clear is no secret's start, without a Map lookup. */
  private readonly prefixBits = new Uint8Array(1 << 17);
  private readonly short: { needle: string; secret: number }[] = [];
  private readonly pow: number;
  /** The shortest string searched for: decoded content shorter than it holds no secret, nor does anything it embeds. */
  readonly shortest: number;

  constructor(readonly secrets: readonly Secret[]) {
    let pow = 1;
    for (let k = 0; k < PREFIX - 1; k++) pow = Math.imul(pow, 31);
    this.pow = pow;
    this.shortest = Math.min(...secrets.flatMap((s) => needles(s.value).map((n) => n.length)));
    secrets.forEach((s, secret) => {
      for (const needle of needles(s.value)) {
        if (needle.length < PREFIX) {
          this.short.push({ needle, secret });
          continue;
        }
        const h = hashOf(needle, 0);
        this.prefixBits[(h >>> 3) & 0x1ffff]! |= 1 << (h & 7);
        const list = this.byPrefix.get(h) ?? [];
        list.push({ needle, secret });
        this.byPrefix.set(h, list);
      }
    });
  }

  /** Indexes (into secrets) of the secrets found in text. */
  find(text: string): Set<number> {
    const found = new Set<number>();
    for (const s of this.short) if (text.includes(s.needle)) found.add(s.secret);
    if (text.length < PREFIX || this.byPrefix.size === 0) return found;
    const bits = this.prefixBits;
    let h = hashOf(text, 0);
    for (let i = 0; ; i++) {
      const candidates = bits[(h >>> 3) & 0x1ffff]! & (1 << (h & 7)) ? this.byPrefix.get(h) : undefined;
      if (candidates)
        for (const c of candidates) if (!found.has(c.secret) && text.startsWith(c.needle, i)) found.add(c.secret);
      if (i + PREFIX >= text.length) break;
      h = (Math.imul(h - Math.imul(text.charCodeAt(i), this.pow), 31) + text.charCodeAt(i + PREFIX)) | 0;
    }
    return found;
  }
}

/** Base64 (or base64url) runs long enough to hide a secret: data: URIs, Allure's embedded files, Basic credentials. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{12,}={0,2}/g;
/** Allure's single-file report: d("data/attachments/<uuid>.txt","<base64>"), or ["name","<base64>"] where the page reads it later (scripts/lib/report-page.ts). */
const ALLURE_ITEM = /(?:d\(|\[)"([^"]{1,300})","$/;
export const MAX_DEPTH = 2;

/** Every decoded base64 run of a text, with what it was: the Allure item's name, a data: URI, or base64. */
export function* embedded(text: string, shortest = 1): Generator<{ where: string; content: string }> {
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0];
    // A run that is only letters and digits of one kind is a word or a hex id, not an encoding.
    if (/^[a-z]+$|^[A-Z]+$|^[0-9a-f-]+$/.test(run)) continue;
    // Three bytes per four characters: a run too short to decode to the shortest secret is not decoded.
    if (Math.floor((run.length * 3) / 4) < Math.max(6, shortest)) continue;
    const decoded = Buffer.from(run, 'base64');
    if (decoded.length < Math.max(6, shortest)) continue;
    const at = m.index;
    yield {
      get where() {
        const before = text.slice(Math.max(0, at - 320), at);
        const item = ALLURE_ITEM.exec(before)?.[1];
        const dataUri = /data:([^;,"'\s]{0,80});base64,$/.exec(before)?.[1];
        return item ? `embedded ${item}` : dataUri !== undefined ? `data: URI (${dataUri || 'no type'})` : 'base64 run';
      },
      content: decoded.toString('latin1'),
    };
  }
}

/**
 * The labels of the secrets in content or in anything it embeds, with where each was found. `where` is
 * worked out only for a secret found: a report holds tens of thousands of base64 runs, and naming each
 * one (two searches in the text before it) cost more than decoding and searching it.
 */
export function findSecrets(
  content: string,
  matcher: SecretMatcher,
  depth = 0,
  where: string | (() => string) = 'plain text',
  out = new Map<number, string>(),
): Map<number, string> {
  const label = (): string => (typeof where === 'string' ? where : where());
  for (const i of matcher.find(content)) if (!out.has(i)) out.set(i, label());
  if (depth >= MAX_DEPTH || out.size === matcher.secrets.length) return out;
  for (const e of embedded(content, matcher.shortest))
    findSecrets(e.content, matcher, depth + 1, () => (depth === 0 ? e.where : `${label()} › ${e.where}`), out);
  return out;
}

export function readCanary(canaryFile: string): Secret[] {
  if (!existsSync(canaryFile)) return [];
  const seen = new Set<string>();
  const out: Secret[] = [];
  for (const line of readFileSync(canaryFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const s = JSON.parse(line) as Secret;
    if (seen.has(s.value)) continue;
    seen.add(s.value);
    out.push(s);
  }
  return out;
}

export function scanForSecrets(canaryFile: string, dirs: string[]): { leaks: Leak[]; secrets: number; files: number } {
  const secrets = readCanary(canaryFile);
  if (!secrets.length) return { leaks: [], secrets: 0, files: 0 };
  const matcher = new SecretMatcher(secrets);
  const leaks: Leak[] = [];
  let scanned = 0;
  for (const dir of dirs) {
    for (const file of files(dir)) {
      scanned++;
      const content = readFileSync(file).toString('latin1');
      for (const [i, where] of findSecrets(content, matcher)) leaks.push({ file, label: secrets[i]!.label, where });
    }
  }
  return { leaks, secrets: secrets.length, files: scanned };
}

export const describeLeak = (leak: Leak): string =>
  `secret (${leak.label}) found in ${leak.file}${leak.where === 'plain text' ? '' : ` (${leak.where})`}`;

if (require.main === module) {
  const canary = suiteEnvironment().secretCanary ?? '';
  const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['reports', 'test-results'];
  const { leaks, secrets, files: count } = scanForSecrets(canary, dirs);
  if (canary) rmSync(canary, { force: true });
  if (leaks.length) {
    for (const leak of leaks) console.error(`✖ ${describeLeak(leak)}`);
    process.exit(1);
  }
  console.log(
    `secret scan: ${secrets} secrets, ${count} files under ${dirs.join(', ')} (embedded base64 decoded): none found`,
  );
}
