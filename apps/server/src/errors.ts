import { MSG, type MsgKey } from '@stadiumcam/contract';

/** A catalogue text with its key ("events.eventNotFound"): what every `AppError` is made of. */
export type CodedText = { readonly code: MsgKey; readonly text: string };

type Catalogue = typeof MSG;
type Keyed<C> = {
  [A in keyof C]: {
    [K in keyof C[A]]: C[A][K] extends (...args: infer P) => string ? (...args: P) => CodedText : CodedText;
  };
};

/**
 * A catalogue whose every text carries its key. The key comes from where the text sits in the
 * catalogue, never from the text itself, so rewording a text keeps its code.
 */
export function withKeys<C extends Record<string, Record<string, unknown>>>(catalogue: C): Keyed<C> {
  const entries = Object.entries(catalogue).map(([area, texts]) => {
    const keyed = Object.entries(texts).map(([key, text]) => {
      const code = `${area}.${key}` as MsgKey;
      if (typeof text === 'function') return [key, (...args: unknown[]) => ({ code, text: text(...args) as string })];
      return [key, { code, text: text as string }];
    });
    return [area, Object.fromEntries(keyed)];
  });
  return Object.fromEntries(entries) as Keyed<C>;
}

/**
 * `MSG` for errors: `ERR.events.eventNotFound` is `{ code: 'events.eventNotFound', text: 'Event
 * not found' }`, `ERR.events.unknownEvent(slugDate)` the same for a text built from a value.
 */
export const ERR: Keyed<Catalogue> = withKeys(MSG);

/**
 * An expected failure with the status and the text the operator sees (DESIGN §4). `code` is
 * the text's key in the message catalogue, given at the throw (`ERR.area.key`).
 */
export class AppError extends Error {
  readonly code: MsgKey;
  readonly details?: unknown[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly statusCode: number,
    text: CodedText,
    opts: { details?: unknown[]; headers?: Record<string, string> } = {},
  ) {
    super(text.text);
    this.code = text.code;
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

export const badRequest = (t: CodedText, details?: unknown[]) => new AppError(400, t, { details });
export const unauthorized = (t: CodedText = ERR.auth.notLoggedIn) => new AppError(401, t);
export const forbidden = (t: CodedText = ERR.common.insufficientPermissions) => new AppError(403, t);
export const notFound = (t: CodedText = ERR.common.resourceNotFound) => new AppError(404, t);
export const conflict = (t: CodedText) => new AppError(409, t);
export const unprocessable = (t: CodedText) => new AppError(422, t);
