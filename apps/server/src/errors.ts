/** An expected failure with the status and the text the operator sees (DESIGN §4). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: unknown[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, details?: unknown[]) => new AppError(400, msg, details);
export const unauthorized = (msg = 'Not logged in') => new AppError(401, msg);
export const forbidden = (msg = 'Insufficient permissions') => new AppError(403, msg);
export const notFound = (msg = 'Not found') => new AppError(404, msg);
export const conflict = (msg: string) => new AppError(409, msg);
export const unprocessable = (msg: string) => new AppError(422, msg);
