/**
 * Inconclusive (infrastructure): what a sandbox's conditions left without evidence. A rate limit or
 * an unavailable service that outlasted the retries (429, 502, 503, 504), or a request that got no
 * answer at all, says nothing about the API: the test that met it is neither failed nor passed. It is
 * skipped with an `inconclusive` annotation carrying the answer, counted apart from skips by the
 * summary and run.json, exits the scripts with status 4 when nothing failed, and certify never
 * certifies a rule one of its tests was inconclusive on. Done like PreconditionFailed (client/context.ts);
 * how a test ends so is the test runner's (fixtures/inconclusive.ts).
 */
import { isTransientStatus, TransportFailure, type Exchange } from '../transport/http';
import type { SkipReason } from '../ledger/outcomes';

export class InfrastructureInconclusive extends Error {
  override name = 'InfrastructureInconclusive';
  constructor(readonly answer: string) {
    super(`inconclusive (infrastructure): ${answer}`);
  }

  get reason(): SkipReason {
    return { kind: 'inconclusive', answer: this.answer };
  }
}

/** The words of an infrastructure answer: what came back, after how many retries. */
export function describeInfrastructureAnswer(exchange: Exchange): string {
  const url = new URL(exchange.request.url);
  const retryAfter = exchange.response.headers['retry-after'];
  const tries = exchange.retries.length
    ? `, after ${exchange.retries.length} ${exchange.retries.length === 1 ? 'retry' : 'retries'} (${exchange.retries.map((r) => r.status || r.error).join(', ')})`
    : ', not retried (it may have been processed)';
  return `${exchange.label}: ${exchange.request.method} ${url.pathname} answered ${exchange.response.status}${retryAfter ? ` with Retry-After ${retryAfter}` : ''}${tries}`;
}

/** Whether the final answer is the infrastructure's, not the API's. */
export function isInfrastructureAnswer(exchange: Exchange): boolean {
  return isTransientStatus(exchange.response.status);
}

/** An error the infrastructure caused, as an inconclusive outcome; anything else undefined. */
export function asInconclusive(error: unknown): InfrastructureInconclusive | undefined {
  if (error instanceof InfrastructureInconclusive) return error;
  if (error instanceof TransportFailure) return new InfrastructureInconclusive(error.message);
  return undefined;
}
