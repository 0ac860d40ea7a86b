import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.ts';
import { FileWriter } from './file-writer.ts';
import { DiskMediaStore, originalsDir, type MediaStore } from './media-store.ts';
import { createS3Client, S3MediaStore } from './s3-store.ts';

/** The app's two stores: served media (/media) and camera originals (never served). */
export type MediaStores = { media: MediaStore; originals: MediaStore; close: () => Promise<void> | void };

/**
 * On disk (`<dataDir>/media`, `<dataDir>/originals`), or in the S3_BUCKET under `media/` and
 * `originals/` so that every instance sharing the bucket sees every photo (DESIGN §13).
 */
export function createMediaStores(config: AppConfig, log: FastifyBaseLogger): MediaStores {
  if (!config.s3) {
    const writer = new FileWriter();
    return {
      media: new DiskMediaStore(config.mediaDir, writer),
      originals: new DiskMediaStore(originalsDir(config.dataDir), writer, 0o700),
      close: () => writer.close(),
    };
  }
  const client = createS3Client(config.s3);
  return {
    media: new S3MediaStore(client, config.s3.bucket, 'media/', log),
    originals: new S3MediaStore(client, config.s3.bucket, 'originals/', log),
    close: () => client.destroy(),
  };
}
