/**
 * Comments say why, never when: a code comment that names one of our own issues goes stale the day
 * the issue closes, and tells a reader where to look instead of what holds. The issue, like a
 * measurement, belongs in the commit message; the comment keeps the reason. This fails on any comment
 * of a tracked (or new, not ignored) .ts, .mts, .cts, .js, .mjs, .cjs, .jsonc or .yml file that
 * names an issue by number or by title, naming the file and line. A third party's bug named as the
 * reason for a workaround stays: those few are allowed below, each with why.
 * Run: node --import tsx --test tests/unit/comments.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');

/** An issue named by its number (the word, then a number, with or without #) or by its quoted title. */
const NAMES_AN_ISSUE = /\bissues?\s+(#?\d+|["“])/i;

/**
 * Another project's issue, named as the reason for a workaround: it says why, and it is not ours to
 * close. Each entry is the whole mention and what it explains.
 */
const THIRD_PARTY_ISSUES: readonly { mention: RegExp; why: string }[] = [
  {
    mention: /\ballure3 issue #\d+/gi,
    why: 'Allure 3 writes an analytics tag it has no option for: the reason the report strips it',
  },
];

const SCRIPT_KINDS: Record<string, ts.ScriptKind> = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.cts': ts.ScriptKind.TS,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.cjs': ts.ScriptKind.JS,
  '.jsonc': ts.ScriptKind.JSON,
};
const YAML = new Set(['.yml', '.yaml']);
const SKIPPED = /^(reports|test-results)\//;

/** Every file this checks: tracked or new and not ignored, relative to the root. */
function checkedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(listed.split('\0'))]
    .filter((f) => f && !SKIPPED.test(f))
    .filter((f) => path.extname(f) in SCRIPT_KINDS || YAML.has(path.extname(f)))
    .filter((f) => existsSync(path.join(root, f)))
    .sort();
}

interface Comment {
  /** Offset of the comment's first character in the file. */
  start: number;
  text: string;
}

/**
 * The comments of a script, read with TypeScript's parser: every comment is trivia around some token
 * (before it on lines of its own, after it on its line; the end of file included), so strings, template literals and regular expressions are never taken
 * for one. JSDoc nodes are skipped: their text is the comment itself, found before the node's token.
 */
function scriptComments(fileName: string, text: string, kind: ts.ScriptKind): Comment[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, Comment>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length === 0) {
      const ranges = [
        ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
        ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
      ];
      for (const range of ranges) found.set(range.pos, { start: range.pos, text: text.slice(range.pos, range.end) });
      return;
    }
    for (const child of children) visit(child);
  };
  visit(source);
  return [...found.values()].sort((a, b) => a.start - b.start);
}

/** The comments of a YAML file: from a `#` at a line's start or after a space, to the line's end. */
function yamlComments(text: string): Comment[] {
  const found: Comment[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const hash = /(^|\s)#/.exec(line);
    if (hash) {
      const at = hash.index + hash[1]!.length;
      found.push({ start: offset + at, text: line.slice(at) });
    }
    offset += line.length + 1;
  }
  return found;
}

/** "file:line: the line" for each line of a comment that names one of our issues. */
function issueMentions(file: string, text: string, comments: readonly Comment[]): string[] {
  const out: string[] = [];
  for (const comment of comments) {
    let lineStart = comment.start;
    for (const line of comment.text.split('\n')) {
      const ours = THIRD_PARTY_ISSUES.reduce((rest, allowed) => rest.replace(allowed.mention, ''), line);
      if (NAMES_AN_ISSUE.test(ours)) {
        const lineNo = text.slice(0, lineStart).split('\n').length;
        out.push(`${file}:${lineNo}: ${line.trim()}`);
      }
      lineStart += line.length + 1;
    }
  }
  return out;
}

function commentsOf(file: string, text: string): Comment[] {
  const ext = path.extname(file);
  return YAML.has(ext) ? yamlComments(text) : scriptComments(file, text, SCRIPT_KINDS[ext]!);
}

test('the reader finds issues named in comments only, never in strings, templates or regular expressions', () => {
  const issue = (n: number): string => ['issue', String(n)].join(' ');
  const sample = [
    `const a = '${issue(1)}';`,
    `const b = \`\${a} ${issue(2)}\`;`,
    `const c = /${issue(3)}/i.test(a) ? [a, b] : []; // ${issue(4)}`,
    'const d = [',
    `  a, // ${issue(5)}`,
    `  /* ${issue(6)} */ b,`,
    `  // ${issue(7)}`,
    '];',
    '/**',
    ` * ${issue(8)}, and allure3 issue #476 (a third party's)`,
    ' */',
    'export const e = () => d;',
    `// ${issue(9)} at the end`,
  ].join('\n');
  const found = issueMentions('sample.ts', sample, scriptComments('sample.ts', sample, ts.ScriptKind.TS));
  assert.deepEqual(
    found.map((f) => f.split(': ')[0]),
    ['sample.ts:3', 'sample.ts:5', 'sample.ts:6', 'sample.ts:7', 'sample.ts:10', 'sample.ts:13'],
  );
  assert.deepEqual(
    issueMentions(
      'a.ts',
      '// allure3 issue #476\n',
      scriptComments('a.ts', '// allure3 issue #476\n', ts.ScriptKind.TS),
    ),
    [],
  );
  const yaml = `name: 'the ${issue(10)} title'\nrun: echo # ${issue(11)}\n# issue "a title"\n`;
  assert.deepEqual(
    issueMentions('ci.yml', yaml, yamlComments(yaml)).map((f) => f.split(': ')[0]),
    ['ci.yml:2', 'ci.yml:3'],
  );
});

test('no code comment names an issue of ours: the reason stays in the comment, the issue in the commit message', () => {
  const files = checkedFiles();
  assert.ok(files.length > 100, `only ${files.length} files listed by git ls-files`);
  const mentions = files.flatMap((file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    // Parsed only where the words occur at all: most files never name an issue.
    if (!NAMES_AN_ISSUE.test(text)) return [];
    return issueMentions(file, text, commentsOf(file, text));
  });
  assert.deepEqual(
    mentions,
    [],
    `comments naming an issue of ours (say why in the comment; the issue and its numbers go to the commit message):\n${mentions.join('\n')}`,
  );
});
