// The seed lays out 90 UTC days of history ending today, and the specs read "today" from the clock. A run that
// seeds before midnight UTC and tests after it sees every day shifted by one (a day without a probe appears,
// the oldest one leaves), so nine specs failed on a CI run that straddled midnight. The Playwright process waits
// for midnight before it starts the web server (which seeds) when midnight would fall inside a run.

/** Longer than a whole e2e run on a loaded 2-core machine (about 10 minutes in CI). */
export const MIDNIGHT_MARGIN_MS = 20 * 60_000;

/** How long to wait at `now` so that a run starting then does not cross midnight UTC: 0, or until 5 s past it. */
export function waitBeforeMidnight(now: number, marginMs = MIDNIGHT_MARGIN_MS): number {
  const left = Math.ceil((now + 1) / 86_400_000) * 86_400_000 - now;
  return left > marginMs ? 0 : left + 5_000;
}

/** Blocks the Playwright runner (not its workers) until past midnight UTC when a run now would cross it.
 * E2E_MIDNIGHT_WAIT=0 turns it off. */
export function holdPastMidnight(): void {
  if (process.env.TEST_WORKER_INDEX !== undefined || process.env.E2E_MIDNIGHT_WAIT === "0") return;
  const ms = waitBeforeMidnight(Date.now());
  if (ms === 0) return;
  console.error(
    `[e2e] midnight UTC is ${Math.round(ms / 1000)} s away; waiting for it so the seeded days and the pages agree on the date (E2E_MIDNIGHT_WAIT=0 skips)`,
  );
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
