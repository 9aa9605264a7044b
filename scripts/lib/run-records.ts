/**
 * A run's tests as flat records, read from a Playwright JSON report: what compare, nightly and the
 * deviations work with. (Per-rule outcomes come from scripts/lib/certification.ts.)
 */
import { stripVTControlCharacters } from 'node:util';
import { flattenReport, type PlaywrightJsonReport } from '../../record/playwright-report';
import { describeSkip, outcomesOfReportTest, skipReasonOf } from '../../ledger/outcomes';

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface TestRecord {
  /** "project › file › describe › title". */
  title: string;
  project: string;
  /** Tags without the leading @ (rule IDs and markers such as live-safe). */
  tags: string[];
  outcome: Outcome;
  skipReason?: string;
  /** First line of the first error, for failed tests. */
  error?: string;
  /** The rules a failed test failed (ledger/outcomes.ts). */
  failedRules?: string[];
}

export type { PlaywrightJsonReport };

const stripAnsi = (s: string): string => stripVTControlCharacters(s);

/** One record per (project, test), with skip reasons and errors. */
export function testRecords(report: PlaywrightJsonReport): TestRecord[] {
  return flattenReport(report).map((t) => {
    const record: TestRecord = {
      title: [t.project, ...t.titlePath].join(' › '),
      project: t.project,
      tags: t.tags.map((x) => x.replace(/^@/, '')),
      outcome: t.outcome,
    };
    const annotations = [...t.annotations, ...t.resultAnnotations];
    if (t.outcome === 'skipped') {
      const reason = skipReasonOf(annotations);
      record.skipReason = reason
        ? describeSkip(reason)
        : (annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description ??
          'skipped (no reason given)');
    }
    if (t.outcome === 'failed') {
      const message = t.errors[0] ?? `status ${t.status}`;
      record.error =
        stripAnsi(message)
          .split('\n')
          .find((l) => l.trim())
          ?.trim()
          .slice(0, 300) ?? `status ${t.status}`;
      record.failedRules = outcomesOfReportTest(t).flatMap((o) => (o.status === 'failed' ? [o.rule] : []));
    }
    return record;
  });
}
