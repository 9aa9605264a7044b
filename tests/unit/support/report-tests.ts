/**
 * Rows of a Playwright JSON report and ledger rules, as the certification and verdict tests need them:
 * one builder each, so a change to ReportTest or Rule is made once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Rule } from '../../../ledger/rules';
import type { ReportTest } from '../../../record/playwright-report';

/** A ledger rule of the auth flow on the token operation. */
export const ruleFixture = (id: string, level: Rule['level'] = 'documented', needs?: Rule['needs']): Rule => ({
  id,
  section: '§0',
  level,
  flow: 'auth',
  statement: id,
  operations: ['token'],
  ...(needs ? { needs } : {}),
});

/** A test of the report citing `tags`, ended as `resultStatus`; its title names both, so each is unique. */
export const reportTest = (
  tags: string[],
  resultStatus: 'passed' | 'failed' | 'skipped',
  annotations: ReportTest['annotations'] = [],
  error?: string,
): ReportTest => ({
  project: 'local',
  titlePath: ['f', `${tags.join('+')} ${resultStatus}`],
  title: `f › ${tags.join('+')} ${resultStatus}`,
  tags,
  status: resultStatus === 'failed' ? 'unexpected' : resultStatus === 'skipped' ? 'skipped' : 'expected',
  outcome: resultStatus,
  annotations,
  resultAnnotations: [],
  resultStatus,
  durationMs: 1,
  errors: error ? [error] : [],
  results: [],
});

/** The run's History results in an Allure results folder (runner/history.ts), counted as the report counts them. */
export function historyResultCounts(resultsDir: string): { total: number; passed: number } {
  const results = readdirSync(resultsDir)
    .filter((f) => f.endsWith('-result.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(path.join(resultsDir, f), 'utf8')) as {
          status: string;
          labels: { name: string; value: string }[];
        },
    )
    .filter((r) => r.labels.some((l) => l.name === 'epic' && l.value === 'History'));
  return { total: results.length, passed: results.filter((r) => r.status === 'passed').length };
}
