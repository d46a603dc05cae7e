import { Miniflare } from 'miniflare';

// The platforms' fakes (fakes/platforms.js) in the same engine the Workers pool runs them in,
// reachable over loopback HTTP so the official SDKs (Node packages) can call them.
export async function startFakes() {
  const mf = new Miniflare({
    modules: true,
    scriptPath: 'fakes/platforms.js',
    compatibilityDate: '2026-04-20',
    host: '127.0.0.1',
    port: 0,
  });
  const url = (await mf.ready).toString().replace(/\/$/, '');
  /** The fake's seeded rows of a platform campaign, as GET /__expected answers them. */
  const expectedRows = async (platform, campaign, since, until) =>
    (
      await (
        await fetch(
          `${url}/__expected?platform=${platform}&campaign=${campaign}&since=${since}&until=${until}`,
        )
      ).json()
    ).rows;
  return { url, expectedRows, stop: () => mf.dispose() };
}
