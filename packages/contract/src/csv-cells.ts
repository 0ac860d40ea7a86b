/**
 * CSV injection (DESIGN §12): a spreadsheet runs a cell starting with = + - @, a tab or a CR as a
 * formula. Every CSV the product writes (server exports, the console's languages table) puts an
 * apostrophe before such a text, and the imports take it off again, so a text goes out and comes
 * back unchanged. A text that already starts with apostrophes before a formula sign gets one
 * more, so taking one off on the way back is always exact.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The text as a CSV cell carries it. */
export const csvSafeText = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** The text a `csvSafeText` cell carried. */
export const csvTextOf = (cell: string): string =>
  cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
