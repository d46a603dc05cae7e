import type { Env } from '../../env';
import {
  type ClickIdFields,
  mintClickId,
  type ParsedClickId,
  parseClickId,
  TEST_CLICK_ID_VERSION,
} from '../hot-path/click-ids';

// Test click ids: the real format and signature under another version byte, so that the visit,
// landing-page click and conversion routes refuse them as they would a forged id. Only the
// test-conversion hook of the postback route reads them (docs/decisions/061-test-clicks.md).

type Keys = Pick<Env, 'CLICK_ID_SECRET' | 'JWT_SECRET'>;

export function mintTestClickId(
  env: Keys,
  fields: Omit<ClickIdFields, 'issuedAt'>,
  now = Date.now(),
): string {
  return mintClickId(env, fields, now, undefined, TEST_CLICK_ID_VERSION);
}

export function parseTestClickId(env: Keys, raw: string | null | undefined): ParsedClickId | null {
  return parseClickId(env, raw, Date.now(), TEST_CLICK_ID_VERSION);
}
