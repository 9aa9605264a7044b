/**
 * The classes of an HTTP status, defined once for the suite, its engines and its scripts (the
 * reference keeps its own: it is an independent reading). A predicate takes a status code or
 * anything with a response (an Exchange), so a caller never spells the range itself.
 */

/** A status code, or an answer that carries one (an Exchange). */
export type Answered = number | { response: { status: number } };

const statusOf = (answer: Answered): number => (typeof answer === 'number' ? answer : answer.response.status);

/** Accepted: 200–299. */
export const is2xx = (answer: Answered): boolean => {
  const status = statusOf(answer);
  return status >= 200 && status < 300;
};

/** Refused by the client's fault: 400–499. */
export const is4xx = (answer: Answered): boolean => {
  const status = statusOf(answer);
  return status >= 400 && status < 500;
};

/** The server failed: 500 and above. */
export const isServerError = (answer: Answered): boolean => statusOf(answer) >= 500;

/** An answer at all (200–499): neither a server error nor no status (a transport failure is 0) or a 1xx. */
export const isAnswer = (answer: Answered): boolean => {
  const status = statusOf(answer);
  return status >= 200 && status < 500;
};
