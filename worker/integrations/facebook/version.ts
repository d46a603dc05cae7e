// The one place the Graph API version lives (docs/decisions/145). Facebook retires a version about
// two years after the next one comes out; tests/unit/facebook-version.test.ts fails once this one
// is more than a year old, so it is moved on long before Facebook stops answering it.
// The official SDK pinned for the contract tests (facebook-nodejs-business-sdk 24.0.1, the newest on
// npm) still speaks v24.0 (released 2025-10-08, over a year ago on 2026-11-27); the calls the
// product makes have the same shapes in v24.0 and v26.0.

/** The Graph API version every call and the login dialog use. */
export const GRAPH_API_VERSION = 'v26.0';
/** When Facebook released it (developers.facebook.com/docs/graph-api/changelog/versions). */
export const GRAPH_API_RELEASED = '2026-07-29';

const VERSION_SEGMENT = /\/v\d+\.\d+(?=\/|$)/;

/** A configured Graph base URL (with or without a version) on the version above. */
export function graphBase(configured: string): string {
  return `${configured.replace(/\/+$/, '').replace(VERSION_SEGMENT, '')}/${GRAPH_API_VERSION}`;
}

/** The login dialog URL on the version above: `/<version>/dialog/oauth`. */
export function dialogOnVersion(configured: string): string {
  return configured.replace(/(\/v\d+\.\d+)?\/dialog\/oauth\/?$/, `/${GRAPH_API_VERSION}/dialog/oauth`);
}
