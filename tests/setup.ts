import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach } from 'vitest';
import { installFakeDns } from './fake-dns';
import { settleWorkerFetches } from './worker-fetch';

// Each test file gets its own storage; migrations run once per file before its tests.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Postback hosts are resolved at send time; the tests' resolver is a fake (tests/fake-dns.ts).
installFakeDns();

// The waitUntil work of the requests a test made ends inside that test (tests/worker-fetch.ts).
afterEach(settleWorkerFetches);
