/**
 * Spreadsheet formula injection (CWE-1236): a CSV cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is run as a formula by Excel, LibreOffice and Google Sheets. Every CSV export passes its text cells
 * through here: such a cell gets a leading single quote, which spreadsheets show as text and never evaluate.
 * Numbers are written as numbers and need nothing.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
