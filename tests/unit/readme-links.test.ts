/**
 * Item "every README link resolves": in every Markdown file the repository ships (README.md,
 * environments/, reference/, reports/…; the spec aside, it is the provider's text), a relative link
 * names an existing file, and its #anchor a heading of that file; a path written as code
 * (`ledger/deviations.ts`) names an existing file too, from the file's folder or the repository's
 * root. Paths under reports/ name what a run writes, not what the repository holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { root } from './support/cli';

/** The Markdown files the repository ships: git's list, or a walk of the tree where there is no git. */
function shippedMarkdown(): string[] {
  const git = spawnSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: root, encoding: 'utf8' });
  const listed = git.status === 0 ? git.stdout.split('\0').filter(Boolean) : walk('');
  return listed.filter((f) => !f.startsWith('spec/') && existsSync(path.join(root, f))).sort();
}

function walk(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name.startsWith('.') || rel.startsWith('reports/') ? [] : walk(rel);
    return entry.name.endsWith('.md') ? [rel] : [];
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

/** Links of the prose: [text](target) and <a href="target">, outside fenced code. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<a\s[^>]*href="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
}

/** Paths written as code that name a file of the repository: a folder and a file name with a known extension, no placeholder. */
function codePaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`((?:\.{1,2}\/)?[\w.-]+(?:\/[\w.-]+)+\.(?:md|ts|mjs|cjs|js|json|ya?ml))`/g)].map(
    (m) => m[1]!,
  );
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

function brokenLinks(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const dir = path.dirname(path.join(root, file));
  const broken: string[] = [];
  for (const link of links(text)) {
    if (isExternal(link)) continue;
    const [target, anchor] = link.split('#') as [string, string | undefined];
    const resolved = target ? path.resolve(dir, decodeURIComponent(target)) : path.join(root, file);
    if (!existsSync(resolved)) {
      broken.push(`${file}: link ${link} names no file`);
      continue;
    }
    if (
      anchor &&
      resolved.endsWith('.md') &&
      statSync(resolved).isFile() &&
      !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)
    ) {
      broken.push(`${file}: link ${link} names no heading of ${path.relative(root, resolved)}`);
    }
  }
  for (const p of codePaths(text)) {
    if (p.startsWith('reports/')) continue;
    if (!existsSync(path.resolve(dir, p)) && !existsSync(path.join(root, p)))
      broken.push(`${file}: \`${p}\` names no file (from ${path.relative(root, dir) || '.'} or the repository root)`);
  }
  return broken;
}

test('the Markdown files the repository ships are found, the spec aside', () => {
  const files = shippedMarkdown();
  for (const f of ['README.md', 'environments/README.md', 'reference/README.md', 'reports/README.md'])
    assert.ok(files.includes(f), `${f} not found`);
  assert.ok(!files.some((f) => f.startsWith('spec/')));
});

test('every relative link and every path written as code in them names an existing file (and heading)', () => {
  assert.deepEqual(shippedMarkdown().flatMap(brokenLinks), []);
});

test('the checker finds what is broken: a missing file, a missing heading, a code path that names nothing', () => {
  assert.deepEqual(
    [
      ...headingAnchors(
        '# The reference payments service\n## `target`, kind `remote`\n## Faults\n## Faults\n```\n# not a heading\n```\n',
      ),
    ],
    ['the-reference-payments-service', 'target-kind-remote', 'faults', 'faults-1'],
  );
  assert.deepEqual(links('see [a](b.md#c) and [web](https://x.example) <a href="d.md">d</a>\n```\n[e](f.md)\n```'), [
    'b.md#c',
    'https://x.example',
    'd.md',
  ]);
  assert.deepEqual(
    codePaths('`../shared/spec/payments-api.md` and `environments/<env>.json`, `npm run x`, `ledger/deviations.ts`'),
    ['../shared/spec/payments-api.md', 'ledger/deviations.ts'],
  );
});
