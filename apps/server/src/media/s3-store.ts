import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import type { S3Settings } from '../config.ts';
import { AppError, ERR, type CodedText } from '../errors.ts';
import { checkKey, contentTypeOf, mediaUrl, type MediaEntry, type MediaInfo, type MediaStore } from './media-store.ts';

/** One S3 client per app, shared by its stores; destroyed when the app closes. */
export function createS3Client(s3: S3Settings): S3Client {
  return new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    // From AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY (config.ts); else the SDK's chain (instance role, profile).
    credentials: s3.credentials,
    // An unreachable store fails an upload in seconds, not after the OS's TCP timeout.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 30_000 },
    maxAttempts: 2,
    // Checksums only where S3 requires them: S3-compatible stores (MinIO, Ceph, s3rver) differ
    // in the newer flexible checksums; TLS already protects the bytes in transit.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (err: unknown) =>
  statusOf(err) === 404 || (err instanceof S3ServiceException && ['NoSuchKey', 'NotFound'].includes(err.name));
/** Answers, not failures: a missing key, "not modified" and a range outside the object. */
const isAnswer = (err: unknown) => isMissing(err) || statusOf(err) === 304 || statusOf(err) === 416;

/** What a log line may say about an S3 failure: its name, message and status; never the request (signed headers). */
const describeS3Error = (err: unknown) => ({
  name: (err as Error).name,
  message: (err as Error).message,
  status: statusOf(err),
});

/** An answer of GET/HEAD /media/<key> straight from the bucket. */
export type S3Answer =
  | { status: 304 }
  | { status: 404 }
  | { status: 416 }
  | { status: 200 | 206; info: MediaInfo; etag?: string; contentType: string; range?: string; body?: Readable };

/**
 * Media in an S3-compatible bucket under `prefix` (`media/` for served media, `originals/` for
 * camera originals: /media serves only its own prefix). A PutObject is atomic, so there are no
 * temp objects; a failed write or read is a 503 AppError with a clear text, logged without secrets.
 */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3';

  constructor(
    private readonly client: S3Client,
    readonly bucket: string,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  private objectKey(key: string): string {
    return `${this.prefix}${checkKey(key)}`;
  }

  /** Runs an S3 call; a failure (not an answer like 404) becomes the 503 `failure`, logged. */
  private async run<T>(
    op: string,
    key: string,
    call: () => Promise<T>,
    failure: CodedText = ERR.media.storeUnavailable,
  ): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (isAnswer(err)) throw err;
      throw this.failed(op, key, err, failure);
    }
  }

  private failed(op: string, key: string, err: unknown, text: CodedText = ERR.media.storeUnavailable): AppError {
    this.log.error({ s3: describeS3Error(err), op, key, bucket: this.bucket }, 'media store request failed');
    return new AppError(503, text);
  }

  async put(key: string, data: Buffer): Promise<string> {
    const Key = this.objectKey(key);
    const ContentType = contentTypeOf(key);
    await this.run('put', key, () =>
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: data, ContentType })),
    );
    return mediaUrl(key);
  }

  async read(key: string): Promise<Buffer> {
    const found = await this.open(key);
    if (!found) throw Object.assign(new Error(`Media not found: ${key}`), { code: 'ENOENT' });
    const chunks: Buffer[] = [];
    for await (const chunk of found.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async open(key: string): Promise<(MediaInfo & { body: Readable }) | null> {
    const answer = await this.get(key, {});
    return answer.status === 200 && answer.body ? { ...answer.info, body: answer.body } : null;
  }

  /** GET (or HEAD) of the object with the request's conditions; S3 answers 304, 206 and 416 itself. */
  async get(
    key: string,
    opts: { head?: boolean; range?: string; ifNoneMatch?: string; ifModifiedSince?: Date },
  ): Promise<S3Answer> {
    const input = {
      Bucket: this.bucket,
      Key: this.objectKey(key),
      Range: opts.range,
      IfNoneMatch: opts.ifNoneMatch,
      IfModifiedSince: opts.ifModifiedSince,
    };
    try {
      const out = await this.run(
        'get',
        key,
        () => this.client.send(opts.head ? new HeadObjectCommand(input) : new GetObjectCommand(input)),
        ERR.media.readUnavailable,
      );
      const partial = 'ContentRange' in out && !!out.ContentRange;
      return {
        status: partial ? 206 : 200,
        info: { size: out.ContentLength ?? 0, modified: out.LastModified ?? new Date(0) },
        etag: out.ETag,
        contentType: out.ContentType ?? contentTypeOf(key),
        range: partial ? out.ContentRange : undefined,
        body: 'Body' in out ? (out.Body as Readable | undefined) : undefined,
      };
    } catch (err) {
      if (isMissing(err)) return { status: 404 };
      const status = statusOf(err);
      if (status === 304 || status === 416) return { status };
      throw err;
    }
  }

  async stat(key: string): Promise<MediaInfo | null> {
    const answer = await this.get(key, { head: true });
    return answer.status === 200 ? answer.info : null;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  /** Every object under a key prefix (of this store), a page of up to 1000 at a time. */
  private async *list(prefix: string) {
    let token: string | undefined;
    do {
      const page = await this.run(
        'list',
        prefix,
        () =>
          this.client.send(
            new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }),
          ),
        ERR.media.readUnavailable,
      );
      yield page.Contents ?? [];
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /**
   * Folders are key prefixes, found from a flat listing rather than S3's Delimiter (s3rver 3.7.1
   * drops a common prefix whose objects lie two levels deeper); the listing also gives each
   * folder's time, its newest object's, without a request per folder.
   */
  async entries(folder: string): Promise<MediaEntry[]> {
    const prefix = folder ? `${checkKey(folder)}/` : '';
    const strip = this.prefix.length + prefix.length;
    const files: MediaEntry[] = [];
    const folders = new Map<string, number>();
    for await (const objects of this.list(prefix)) {
      for (const o of objects) {
        const rest = (o.Key ?? '').slice(strip);
        const time = o.LastModified?.getTime() ?? Infinity;
        const slash = rest.indexOf('/');
        if (slash === -1) files.push({ name: rest, folder: false, modified: () => Promise.resolve(time) });
        else {
          const name = rest.slice(0, slash);
          folders.set(name, Math.max(folders.get(name) ?? -Infinity, time));
        }
      }
    }
    const dirs = [...folders].map(([name, time]) => ({ name, folder: true, modified: () => Promise.resolve(time) }));
    return [...dirs, ...files];
  }

  async move(from: string, to: string): Promise<void> {
    const [Key, CopySource] = [this.objectKey(to), `${this.bucket}/${this.objectKey(from)}`];
    await this.run('copy', from, () =>
      this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key, CopySource })),
    );
    await this.remove(from);
  }

  async remove(key: string): Promise<void> {
    const Key = this.objectKey(key);
    await this.run('delete', key, () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })));
  }

  async removeFolder(folder: string): Promise<void> {
    // Listed in full first: deleting while paging would shift the continuation.
    const keys: string[] = [];
    for await (const objects of this.list(`${checkKey(folder)}/`)) for (const o of objects) if (o.Key) keys.push(o.Key);
    for (let i = 0; i < keys.length; i += 1000) {
      const Objects = keys.slice(i, i + 1000).map((Key) => ({ Key }));
      const out = await this.run('delete', folder, () =>
        this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects, Quiet: true } })),
      );
      // A batch delete answers 200 with the keys it could not delete (access denied...).
      if (out.Errors?.length) {
        const { Key, Code } = out.Errors[0];
        throw this.failed('delete', folder, new Error(`${out.Errors.length} not deleted, first ${Key}: ${Code}`));
      }
    }
  }

  /** A PutObject is all or nothing: no temp objects to sweep. */
  async removeTemps(): Promise<number> {
    return 0;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const { name, message, status } = describeS3Error(err);
      throw new Error(`bucket "${this.bucket}": ${status ? `${status} ` : ''}${message || name}`);
    }
  }
}
