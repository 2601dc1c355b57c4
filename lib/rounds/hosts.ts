/** host[:port] of a URL, lower-cased: the unit that per-host rules and schedules count by. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase() || null;
  } catch {
    return null;
  }
}
