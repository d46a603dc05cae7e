import type { AuthUser } from './lib/auth-user';

/** Bindings and configuration of one installation (wrangler.toml, .dev.vars, Worker secrets). */
export interface Env {
  DB: D1Database;
  BUCKET: R2Bucket;
  ASSETS: Fetcher;
  INGEST_QUEUE: Queue;
  STATS_QUEUE: Queue;
  /** Outbound postbacks to traffic sources (worker/jobs/postbacks.ts). */
  POSTBACK_QUEUE: Queue;
  /** 'development' (npm start), 'test' (vitest) or unset: unset means production. */
  ENVIRONMENT?: string;
  REGISTRATION_ENABLED: string;
  /** The vendor's Ed25519 public key as JWK JSON: verifies license keys offline. */
  LICENSE_PUBLIC_KEY: string;
  /** HMAC secret for the API's bearer tokens and session cookies. */
  JWT_SECRET: string;
  /**
   * HMAC secret that signs click ids (docs/decisions/013-click-ids.md). Optional: without it a
   * key derived from JWT_SECRET is used, but then rotating JWT_SECRET breaks click ids in flight.
   */
  CLICK_ID_SECRET?: string;
  /** Secret mixed into every password hash (docs/decisions/002-password-hashing.md). */
  PASSWORD_PEPPER: string;
  /** AES-GCM key (base64, 32 bytes) for stored credentials. */
  ENCRYPTION_KEY: string;
  /** Lifetime of a bearer token in seconds (default 12 hours). */
  TOKEN_TTL_SECONDS?: string;
  /** DNS-over-HTTPS JSON endpoint that resolves outbound hosts before each call (default Cloudflare's). */
  DNS_RESOLVER_URL?: string;
  /**
   * Host names the outbound guard trusts without address checks (comma-separated, e.g.
   * `127.0.0.1,localhost`), honoured only when ENVIRONMENT is development or test
   * (docs/decisions/122). Never set in production.
   */
  OUTBOUND_ALLOW_HOSTS?: string;
  MAIL_FROM: string;
  /** HTTP mail API: when both are set, mail is delivered there as well as kept in the outbox. */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  // Ad platforms (worker/integrations/, docs/operations.md): base URLs and app ids.
  FACEBOOK_API_URL: string;
  FACEBOOK_APP_ID: string;
  /** Secret of the Facebook app (code exchange, app access token). */
  FACEBOOK_APP_SECRET?: string;
  /** Facebook's OAuth dialog (the auth_url of GET /api/facebook/status). */
  FACEBOOK_DIALOG_URL: string;
  TIKTOK_API_URL: string;
  TABOOLA_API_URL: string;
  MEDIAGO_API_URL: string;
  LIVEINTENT_API_URL: string;
  /** The network's traffic providers, Blaze and CPC (docs/decisions/097). */
  TRAFFIC_PROVIDER_API_URL: string;
  /** Their API key (a secret); unset sends no key. */
  TRAFFIC_PROVIDER_API_KEY?: string;
  /** The CPC submit's attachment limit in MB (GET /api/cpc/config; default 25). */
  CPC_ATTACHMENT_MAX_SIZE_MB?: string;
  /** The Blaze publisher whose zones tab 7 offers (default 9). */
  BLAZE_PUBLISHER_ID?: string;
  /** Per-request timeout of a platform call in ms (default 10000). */
  PLATFORM_TIMEOUT_MS?: string;
  /**
   * The platforms' fakes as a service binding (tests only, docs/decisions/070): when bound,
   * platform requests go there instead of the network.
   */
  PLATFORM_FAKES?: Fetcher;
  /**
   * Operator mode (docs/decisions/082): the host (name, or name:port) on which this installation
   * serves /master-dashboard and the central /api/operator/ calls. Unset: a student installation.
   */
  OPERATOR_HOST?: string;
  /**
   * The default installation domain of the operator's modify calls (spec 4 §7): where a modify
   * call that names no student and no domain goes (docs/decisions/175). Unset: such a call is 422.
   */
  OPERATOR_DEFAULT_DOMAIN?: string;
  /** Per-installation timeout of the operator's fan-out calls, in ms (default 5000). */
  OPERATOR_TIMEOUT_MS?: string;
  /** The operator's cache refresh: one message per student installation (worker/jobs/operator.ts). */
  OPERATOR_QUEUE: Queue;
  /** Days after which raw events move to R2 (worker/services/archive/raw-archive.ts; default 90, 0 = never). */
  RAW_ARCHIVE_AFTER_DAYS?: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    user: AuthUser;
  };
};
