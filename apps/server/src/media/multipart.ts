import { AppError, badRequest, ERR, type CodedText } from '../errors.ts';

/**
 * The answer to a multipart body the reader stopped on (docs/security.md §23), the same for
 * every reader (template images, overlays, .amp, map files). Too many files is checked first
 * and has its own text with 400 (the body's shape is wrong; 413 stays for bytes and pixels):
 * the multipart plugin answers it with statusCode 413 too, which read as 'A file is larger
 * than 2 MB'. Too many fields or parts is a malformed body, not a large one.
 */
export function uploadError(err: unknown, limits: { maxFiles: number; tooLarge: CodedText }): AppError {
  if (err instanceof AppError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (e.code === 'FST_FILES_LIMIT')
    return badRequest(limits.maxFiles === 1 ? ERR.templateImages.singleFile : ERR.media.tooManyFiles(limits.maxFiles));
  if (e.code === 'FST_FIELDS_LIMIT' || e.code === 'FST_PARTS_LIMIT')
    return badRequest(ERR.media.malformedUploadReason(e.message));
  if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) return new AppError(413, limits.tooLarge);
  return badRequest(ERR.media.malformedUploadReason(e.message));
}
