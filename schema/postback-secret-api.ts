// Answers of the postback-secret calls (docs/api.md "Hardening"; docs/tracking.md "Postback secret").

/** GET /api/postback-secret. */
export type PostbackSecretAnswer = { secret: string };
/** POST /api/postback-secret/rotate. */
export type RotatePostbackSecretAnswer = { secret: string; message: string };
/** GET /api/campaigns/{id}/postback-secret; `own` is false when the installation's applies. */
export type CampaignPostbackSecretAnswer = { own: boolean; secret: string };
/** POST /api/campaigns/{id}/postback-secret. */
export type SetCampaignPostbackSecretAnswer = CampaignPostbackSecretAnswer & { message: string };
