import { hasForbiddenChars } from '@stadiumcam/contract';
import { badRequest, ERR } from '../errors.ts';

/**
 * The one input rule of docs/security.md §10, for every way input enters: a NUL or a bidi
 * override anywhere in these values is a 400 with the rule's text, thrown before anything is
 * read from or written to the database. `where` names the part (an .amp entry) in the details.
 */
export function refuseForbiddenChars(values: unknown[], where?: string): void {
  if (values.some((v) => hasForbiddenChars(v))) {
    throw badRequest(ERR.security.forbiddenChars, where ? [where] : undefined);
  }
}
