/**
 * §2.3 submission response. creationDateTime is "date-time without zone": a trailing Z or offset is
 * a violation. status is a string here; PENDING on a first submission is asserted by the test, since
 * the same shape answers repeats, whose status the spec does not show. The msgId echo is paymentId in
 * §2.3's example and paymentsId in its field table: either name is the documented member.
 */
/**
 * A date-time without zone as ISO 8601 writes one: seconds may be left out (Java's
 * LocalDateTime.toString() drops ":00"), a fraction follows "." or "," (ISO's two decimal signs), and
 * date and time are joined by "T" or a space (Python's str(datetime); RFC 3339 §5.6's note). The spec
 * names no narrower profile of it (RFC 3339 would require seconds and "."): only the zone is judged.
 */
export const LOCAL_DATE_TIME =
  '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])[T ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d([.,]\\d{1,9})?)?$';

export const submissionResponseSchema = {
  $id: 'submission-response',
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['paymentsServiceId', 'status', 'creationDateTime'],
      anyOf: [
        { required: ['paymentId'], properties: { paymentId: { type: 'string' } } },
        { required: ['paymentsId'], properties: { paymentsId: { type: 'string' } } },
      ],
      properties: {
        paymentsServiceId: { type: 'string', minLength: 1 },
        paymentId: { type: 'string', minLength: 1 },
        paymentsId: { type: 'string', minLength: 1 },
        status: { type: 'string', minLength: 1 },
        creationDateTime: { type: 'string', pattern: LOCAL_DATE_TIME },
      },
    },
  },
} as const;
