import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Secrets every instance shares and that outlive a restart, made once by the first server that
 * needs them (`fan-token`: the key that signs attendee fan ids, docs/security.md §18). Never
 * served, never logged.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
