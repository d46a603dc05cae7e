let zones: Set<string> | null = null;

/** IANA time zone names this runtime knows, plus UTC. */
export function timeZoneNames(): string[] {
  return [...timeZoneSet()].sort();
}

function timeZoneSet(): Set<string> {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return zones;
}

export function isTimeZone(name: string): boolean {
  if (timeZoneSet().has(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.includes('/') || name === 'UTC';
  } catch {
    return false;
  }
}
