import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { installFakeDns } from './fake-dns';

// Each test file gets its own storage; migrations run once per file before its tests.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Postback hosts are resolved at send time; the tests' resolver is a fake (tests/fake-dns.ts).
installFakeDns();
