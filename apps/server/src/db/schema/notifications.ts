import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { events } from './events.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    slugDate: text('slug_date')
      .notNull()
      .references(() => events.slugDate, { onDelete: 'cascade', onUpdate: 'cascade' }),
    type: text('type').notNull(),
    addressed: boolean('addressed').notNull().default(false),
    /** The attendee a suspiciousUser notification is about (also inside `data`), for the rule's lookup. */
    userId: text('user_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_event_idx').on(t.slugDate, t.type, t.createdAt),
    index('notifications_user_idx').on(t.slugDate, t.userId),
  ],
);
