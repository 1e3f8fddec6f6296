/** One CSV cell: text, a number, or null for an empty cell. */
export type CsvCell = string | number | null;

/**
 * RFC 4180 CSV: CRLF after every record, and a field in double quotes (inner quotes doubled) when it holds a comma,
 * a quote, CR or LF.
 */
export function formatCsv(records: readonly (readonly CsvCell[])[]): string {
  return records.map((record) => `${record.map(formatCsvCell).join(',')}\r\n`).join('');
}

function formatCsvCell(cell: CsvCell): string {
  if (cell === null) return '';
  const text = String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Text that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`,
 * so a user-chosen name cannot become a formula when the file is opened (OWASP "CSV injection").
 */
export function protectCsvText(text: string | null): string | null {
  return text !== null && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
