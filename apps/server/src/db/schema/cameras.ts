import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Cameras ever announced by a camera host. Live state (power, queue, frames) is kept in
 * memory; this row lets a known camera be listed as 'off' after a restart and keeps the
 * host's last self-description for the Camera Configs page.
 */
export const cameras = pgTable('cameras', {
  cameraKey: text('camera_key').primaryKey(),
  hostId: text('host_id').notNull(),
  hostInfo: jsonb('host_info').$type<Record<string, unknown>>().notNull().default({}),
  configs: jsonb('configs').$type<unknown[]>().notNull().default([]),
  cameraSettings: jsonb('camera_settings').$type<Record<string, unknown>>().notNull().default({}),
  lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
});
