import { MSG, msgKeyOf, type MsgKey } from '@stadiumcam/contract';

/**
 * An expected failure with the status and the text the operator sees (DESIGN §4). `code` is
 * the text's key in the message catalogue (`MSG`), found from the text unless given (texts
 * built from a number name their key); a text not yet in the catalogue gets `http.<status>`.
 */
export class AppError extends Error {
  readonly code: MsgKey | `http.${number}`;
  readonly details?: unknown[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly statusCode: number,
    message: string,
    opts: { code?: MsgKey; details?: unknown[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = opts.code ?? msgKeyOf(message) ?? `http.${statusCode}`;
    this.details = opts.details;
    this.headers = opts.headers;
  }
}

export const badRequest = (msg: string, details?: unknown[]) => new AppError(400, msg, { details });
export const unauthorized = (msg: string = MSG.auth.notLoggedIn) => new AppError(401, msg);
export const forbidden = (msg: string = MSG.common.insufficientPermissions) => new AppError(403, msg);
export const notFound = (msg: string = MSG.common.resourceNotFound) => new AppError(404, msg);
export const conflict = (msg: string) => new AppError(409, msg);
export const unprocessable = (msg: string) => new AppError(422, msg);
