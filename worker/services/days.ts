// Days are the installation's time zone (ARCHITECTURE "Money and time"); timestamps are UTC.
// Intl knows every IANA zone and its DST rules, so nothing is hand-rolled here.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      // An unknown zone (a bad setting) must not stop ingest: count in UTC rather than lose events.
      f = formatter('UTC');
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** The day (YYYY-MM-DD) in `timeZone` of the UTC instant `ms`. */
export function dayIn(ms: number, timeZone: string): string {
  const parts = formatter(timeZone).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}
