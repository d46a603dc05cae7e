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

// Ingest asks for the day of thousands of events of the same minute; every zone's offset is a
// whole number of minutes, so the day of a minute is the day of each of its instants.
let lastMinute = { zone: '', minute: Number.NaN, day: '' };

/** The day (YYYY-MM-DD) in `timeZone` of the UTC instant `ms`. */
export function dayIn(ms: number, timeZone: string): string {
  const minute = Math.floor(ms / 60_000);
  if (lastMinute.minute === minute && lastMinute.zone === timeZone) return lastMinute.day;
  const parts = formatter(timeZone).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  lastMinute = { zone: timeZone, minute, day };
  return day;
}
