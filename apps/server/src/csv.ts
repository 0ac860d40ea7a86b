import { csvSafeText } from '@stadiumcam/contract';

/**
 * One CSV cell: always quoted, quotes doubled, and a text that a spreadsheet would read as a
 * formula gets a leading apostrophe (DESIGN §12, `csvSafeText`: the console's languages CSV
 * follows the same rule). Numbers are written as they are.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '""';
  const text = typeof value === 'number' ? String(value) : csvSafeText(value);
  return `"${text.replace(/"/g, '""')}"`;
}

export const toCsv = (rows: (string | number | null)[][]) =>
  rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
