/**
 * What a run's target answered, counted for the run's verdict on the target itself
 * (checks/target-verdict.ts): every answer of the payments API by class, every refusal case (a request
 * the spec says must be refused) by its answer, and the first sign that the target does not settle
 * what it accepted. Each worker keeps its counts in a file of the run folder, one per project,
 * rewritten when a refusal case or settlement evidence comes in and when the worker stops, so the
 * workers of a run (a replacement worker included) and the runner read the same sum.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { is2xx, is4xx, isServerError } from '../messages/http-status';

/** Answers by class: 2xx accepted, 4xx refused, 5xx a server error (anything else is not counted). */
export interface AnswerCounts {
  accepted: number;
  refused: number;
  serverError: number;
}

export interface TargetTally {
  /** Every answer of the payments API to a submission or a read (the token endpoint apart). */
  answers: AnswerCounts;
  /** The answers to refusal cases: requests the spec says the payments API must refuse. */
  refusalCases: AnswerCounts;
  /** The first evidence that the target does not settle what it accepts, with the rule it breaks. */
  unsettled?: { rule: string; message: string };
  /** Tests that sent nothing, once the target was known to validate nothing and settle nothing. */
  notSent: number;
}

export type AnswerClass = keyof AnswerCounts;

export const emptyTally = (): TargetTally => ({
  answers: { accepted: 0, refused: 0, serverError: 0 },
  refusalCases: { accepted: 0, refused: 0, serverError: 0 },
  notSent: 0,
});

export function answerClass(status: number): AnswerClass | undefined {
  if (is2xx(status)) return 'accepted';
  if (is4xx(status)) return 'refused';
  if (isServerError(status)) return 'serverError';
  return undefined;
}

export const totalOf = (counts: Readonly<AnswerCounts>): number =>
  counts.accepted + counts.refused + counts.serverError;

const FILE = /^target-(.+)-w(\d+)\.json$/;
const fileName = (project: string, workerIndex: number): string =>
  `target-${encodeURIComponent(project)}-w${workerIndex}.json`;

/** Sums tallies: counts add up, the first evidence of an unsettled target stands. */
export function addTallies(into: TargetTally, from: Readonly<TargetTally>): TargetTally {
  for (const part of ['answers', 'refusalCases'] as const)
    for (const k of ['accepted', 'refused', 'serverError'] as const) into[part][k] += Number(from[part]?.[k]) || 0;
  into.notSent += Number(from.notSent) || 0;
  if (!into.unsettled && from.unsettled) into.unsettled = from.unsettled;
  return into;
}

/** Every project's tally in `dir`, summed over its workers' files (but `skip`); a file read half-written counts nothing. */
export function readTargetTallies(dir: string, skip?: string): Map<string, TargetTally> {
  const byProject = new Map<string, TargetTally>();
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return byProject;
  }
  for (const f of files) {
    const match = FILE.exec(f);
    if (!match || f === skip) continue;
    const project = decodeURIComponent(match[1]!);
    try {
      const tally = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as TargetTally;
      byProject.set(project, addTallies(byProject.get(project) ?? emptyTally(), tally));
    } catch {
      /* being written */
    }
  }
  return byProject;
}

/** One worker's tally of one project, kept in its file; `run()` is what every worker of the run counted. */
export class WorkerTargetTally {
  private readonly own = emptyTally();
  private cached: { at: number; tally: TargetTally } | undefined;
  private writtenAt = 0;
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string | undefined,
    private readonly project: string,
    private readonly workerIndex: number,
    /** How long a read of the run's sum is reused: the files change a few hundred times a run at most. */
    private readonly cacheMs = 250,
  ) {}

  /** An answer of the payments API; written with the next event or when the worker stops. */
  answer(status: number): void {
    const cls = answerClass(status);
    if (cls) this.own.answers[cls]++;
  }

  /** The answer to a refusal case. */
  refusalCase(cls: AnswerClass): void {
    this.own.refusalCases[cls]++;
    this.soon();
  }

  /** The first evidence that the target does not settle what it accepts (later ones add nothing). */
  unsettled(rule: string, message: string): void {
    if (this.own.unsettled) return;
    this.own.unsettled = { rule, message };
    this.flush();
  }

  /** A test sent nothing: the target was known to validate nothing and settle nothing. */
  notSent(): void {
    this.own.notSent++;
    this.soon();
  }

  /**
   * Written at most once per `cacheMs`: the other workers read the run's sum no more often, and a
   * write per refusal case (hundreds a worker) would cost more than every read.
   */
  private soon(): void {
    if (this.pending) return;
    const wait = this.writtenAt + this.cacheMs - Date.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.pending = setTimeout(() => this.flush(), wait);
    this.pending.unref();
  }

  flush(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    this.writtenAt = Date.now();
    if (!this.dir) return;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(path.join(this.dir, fileName(this.project, this.workerIndex)), JSON.stringify(this.own));
    this.cached = undefined;
  }

  /** What every worker of the run counted for this project, this one's latest included. */
  run(now = Date.now()): TargetTally {
    if (!this.dir) return addTallies(emptyTally(), this.own);
    if (this.cached && now - this.cached.at < this.cacheMs) return this.cached.tally;
    // Its own file may lag its latest answers: the counts in memory stand for it.
    const others = readTargetTallies(this.dir, fileName(this.project, this.workerIndex)).get(this.project);
    const tally = addTallies(addTallies(emptyTally(), this.own), others ?? emptyTally());
    this.cached = { at: now, tally };
    return tally;
  }
}
