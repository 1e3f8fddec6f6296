const isoDatePattern =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An engine's date, kept as the engine wrote it when it is ISO 8601 (`2025-03-04`, `2025-03-04T10:00:00`,
 * `2025-03-04T10:00:00.000Z`). Anything else ("2 days ago", "March 4, 2025") is dropped: converting it would need a
 * clock and a locale, and a wrong date is worse than none.
 */
export function readIsoDate(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && isoDatePattern.test(trimmed) ? trimmed : undefined;
}
