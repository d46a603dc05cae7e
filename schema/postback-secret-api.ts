// Answers of the postback-secret calls (docs/api.md "Hardening"; docs/tracking.md "Postback secret";
// docs/decisions/120).

/** A campaign still converting with the installation's secret in the grace period. */
export type LegacyCampaignUse = { id: number; name: string; uses: number; lastUsedAt: number };
/**
 * The grace period in which the installation's own secret still converts every campaign without
 * a stored secret: `until` (ms) or null when there is none; its uses over the last 30 days.
 */
export type LegacyGrace = {
  until: number | null;
  uses: number;
  lastUsedAt: number | null;
  campaigns: LegacyCampaignUse[];
};
/** GET /api/postback-secret (admin). */
export type PostbackSecretAnswer = { secret: string; legacy: LegacyGrace };
/** POST /api/postback-secret/rotate (admin). */
export type RotatePostbackSecretAnswer = { secret: string; message: string };
/** POST /api/postback-secret/legacy/end (admin). */
export type EndLegacyGraceAnswer = { legacy: LegacyGrace; message: string };
/** GET /api/campaigns/{id}/postback-secret; `own` is false when the campaign's secret is derived. */
export type CampaignPostbackSecretAnswer = { own: boolean; secret: string };
/** POST /api/campaigns/{id}/postback-secret. */
export type SetCampaignPostbackSecretAnswer = CampaignPostbackSecretAnswer & { message: string };
