/**
 * ISO 20022's ISODateTime and ISODate as the answers write them in JSON: xs:dateTime and xs:date,
 * whose zone is optional (2025-01-31T10:00:00, as §2.3's own date-time without zone, or with Z or an
 * offset) and whose fraction may have any number of digits. A date may carry a zone too (2025-01-31Z,
 * as Java's XMLGregorianCalendar writes it).
 */
export const ISO_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$';
/**
 * A "string (date-time)" as §2.4 types pacs.002's: any ISO 8601 date-time a server's library writes,
 * seconds optional (Java's LocalDateTime drops ":00"), "T" or a space between date and time (Python's
 * str(datetime), RFC 3339 §5.6's note), zone optional. ISO 20022's stricter xs:dateTime (ISO_DATE_TIME)
 * is ISO-01's, an assumption.
 */
export const SPEC_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}([.,]\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?$';
export const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}(Z|[+-]\\d{2}:\\d{2})?$';
