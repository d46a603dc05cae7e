// Every drizzle table, for drizzle-kit and for the worker's typed database handle.
export * from './auth';
export * from './campaigns';
export * from './hardening';
export * from './stats';
export * from './tracking';
