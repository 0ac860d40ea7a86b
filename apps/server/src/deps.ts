import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Realtime } from './plugins/socket.ts';

/** What every module's service receives: built once per app in buildApp. */
export type Deps = {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  config: AppConfig;
  mailer: Mailer;
  realtime: Realtime;
  log: FastifyBaseLogger;
};
