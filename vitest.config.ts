import { readFileSync } from 'node:fs';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

// The test key pair lives in tests only; the worker sees its public half as configuration.
const licenseKeys = JSON.parse(readFileSync('tests/fixtures/license-test-keys.json', 'utf8'));

export default defineConfig(async () => {
  const migrations = await readD1Migrations('migrations');
  return {
    plugins: [
      cloudflareTest({
        main: './worker/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_LICENSE_PRIVATE_JWK: JSON.stringify(licenseKeys.privateJwk),
            LICENSE_PUBLIC_KEY: JSON.stringify(licenseKeys.publicJwk),
            JWT_SECRET: 'test-jwt-secret-that-is-long-enough-for-hs256-0123456789',
            CLICK_ID_SECRET: 'test-click-id-secret-0123456789abcdef',
            PASSWORD_PEPPER: 'test-pepper',
            ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
            ENVIRONMENT: 'test',
            DNS_RESOLVER_URL: 'https://dns.test/dns-query',
            // The platforms' fakes answer through the PLATFORM_FAKES binding (docs/decisions/070).
            FACEBOOK_API_URL: 'http://fakes.test/facebook',
            FACEBOOK_APP_ID: 'fake-app-id',
            FACEBOOK_APP_SECRET: 'fake-app-secret',
            FACEBOOK_DIALOG_URL: 'http://fakes.test/facebook/dialog/oauth',
            TIKTOK_API_URL: 'http://fakes.test/tiktok/open_api/v1.3',
            TABOOLA_API_URL: 'http://fakes.test/taboola/backstage',
            MEDIAGO_API_URL: 'http://fakes.test/mediago',
            LIVEINTENT_API_URL: 'http://fakes.test/liveintent',
            TRAFFIC_PROVIDER_API_URL: 'http://fakes.test/provider',
            // Small, so the CPC submit's attachment limit is reachable with a few assets.
            CPC_ATTACHMENT_MAX_SIZE_MB: '2',
            PLATFORM_TIMEOUT_MS: '1000',
            // Requests to http://operator.test are the operator's (tests/integration/operator.test.ts).
            OPERATOR_HOST: 'operator.test',
            OPERATOR_TIMEOUT_MS: '400',
          },
          serviceBindings: { PLATFORM_FAKES: 'platform-fakes' },
          workers: [
            {
              name: 'platform-fakes',
              modules: true,
              scriptPath: './fakes/platforms.js',
              compatibilityDate: '2026-04-20',
            },
          ],
        },
      }),
    ],
    test: {
      include: ['tests/**/*.test.ts'],
      exclude: ['tests/e2e/**', 'tests/bench/**', 'node_modules/**'],
      setupFiles: ['./tests/setup.ts'],
      testTimeout: 20_000,
    },
  };
});
