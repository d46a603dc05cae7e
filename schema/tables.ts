// Every drizzle table, for drizzle-kit and for the worker's typed database handle.
export * from './auth';
export * from './campaigns';
export * from './hardening';
export * from './integrations';
export * from './liveintent';
export * from './operator';
export * from './routing-cache';
export * from './stats';
export * from './stats-freshness';
export * from './token-rollups';
export * from './tools';
export * from './tracking';
export * from './traffic';
export * from './wallets';
