import { describe, expect, it } from 'vitest';
import {
  dialogOnVersion,
  GRAPH_API_RELEASED,
  GRAPH_API_VERSION,
  graphBase,
} from '../../worker/integrations/facebook/version';
import wrangler from '../../wrangler.toml?raw';

// Facebook retires Graph versions on a schedule: the one version the product speaks
// (worker/integrations/facebook/version.ts) must be less than a year old, and no configuration
// carries another one (docs/decisions/146).

const YEAR_MS = 365 * 86_400_000;

describe('Graph API version', () => {
  it('is less than a year old', () => {
    const age = Date.now() - Date.parse(`${GRAPH_API_RELEASED}T00:00:00Z`);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(
      age,
      `${GRAPH_API_VERSION} was released on ${GRAPH_API_RELEASED}: move to a newer one`,
    ).toBeLessThan(YEAR_MS);
  });

  it('is the version of every call and of the login dialog, whatever the configuration says', () => {
    expect(GRAPH_API_VERSION).toBe('v26.0');
    expect(graphBase('https://graph.facebook.com')).toBe('https://graph.facebook.com/v26.0');
    expect(graphBase('http://fakes.test/facebook/v21.0/')).toBe('http://fakes.test/facebook/v26.0');
    expect(dialogOnVersion('https://www.facebook.com/dialog/oauth')).toBe(
      'https://www.facebook.com/v26.0/dialog/oauth',
    );
    expect(dialogOnVersion('https://www.facebook.com/v21.0/dialog/oauth')).toBe(
      'https://www.facebook.com/v26.0/dialog/oauth',
    );
  });

  it('is not written in wrangler.toml', () => {
    const facebookLines = wrangler.split('\n').filter((line) => line.startsWith('FACEBOOK_'));
    expect(facebookLines.length).toBeGreaterThan(0);
    expect(facebookLines.filter((line) => /\/v\d+\.\d+/.test(line))).toEqual([]);
  });
});
