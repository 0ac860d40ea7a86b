import { customType, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { SeatMap } from '@stadiumcam/contract';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * The venue's config files as a technician uploaded them: map files (`cam<N>.json`), the row
 * dictionary (`row_dict.txt`) and reference images (`shots/cam<N>.jpg`). Checked before stored.
 */
export const configFiles = pgTable('config_files', {
  name: text('name').primaryKey(),
  data: bytea('data').notNull(),
  size: integer('size').notNull(),
  uploadedBy: text('uploaded_by').notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The one parsed seat map in use (id 1), replaced as a whole by 'Update Config'. */
export const seatMaps = pgTable('seat_maps', {
  id: integer('id').primaryKey(),
  model: jsonb('model').$type<SeatMap>().notNull(),
  loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
});
