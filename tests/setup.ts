import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Each test file gets its own storage; migrations run once per file before its tests.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
