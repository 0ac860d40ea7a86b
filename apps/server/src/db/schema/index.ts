// Each area keeps its tables in its own file; drizzle-kit reads this index.
export * from './auth.ts';
export * from './events.ts';
export * from './snapshots.ts';
export * from './notifications.ts';
export * from './cameras.ts';
export * from './analytics.ts';
export * from './mapping.ts';
export * from './secrets.ts';
export * from './audit.ts';
