/**
 * ISO 20022's ISODateTime and ISODate as the answers write them in JSON: xs:dateTime and xs:date,
 * whose zone is optional (2025-01-31T10:00:00, as §2.3's own date-time without zone, or with Z or an
 * offset) and whose fraction may have any number of digits. A date may carry a zone too (2025-01-31Z,
 * as Java's XMLGregorianCalendar writes it).
 */
export const ISO_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$';
export const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}(Z|[+-]\\d{2}:\\d{2})?$';
