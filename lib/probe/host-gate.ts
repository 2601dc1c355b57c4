// The host-gate contract (architecture.md §2.5) and what counts as a server asking to slow down (§2.1.4): the probe
// and the cross-reader call the gate, lib/rounds implements it, and all of them read a slow-down by these rules.
import { looseError } from "./jsonrpc";
import { RATE_LIMITED_CODE } from "./protocol";

/** Paces requests per host across the probes of a round (architecture.md §2.5); rounds share one. */
export interface HostGate {
  /** Waits until a request to `host` may start; the release is called once its answer was read. */
  acquire(host: string): Promise<() => void>;
  /** Every answer's status and Retry-After, so a slow-down (`isSlowDown`) can pause the host. */
  answered?(host: string, status: number, retryAfter: string | undefined): void;
}

/** A host-gate slot, or the deadline's reason if the deadline passes while queued (the slot, when it comes
 * later, is handed straight back). Shared by the probe and the cross-reader. */
export async function acquireBefore(gate: HostGate, host: string, signal: AbortSignal): Promise<() => void> {
  const acquired = gate.acquire(host);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([acquired, aborted]);
  } catch (e) {
    void acquired.then(
      (r) => r(),
      () => undefined,
    );
    throw e;
  } finally {
    // One listener per request would pile up on a shared deadline signal.
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** 429, or 503 with Retry-After (architecture.md §2.1.4): the server asked us to stop for this round. */
export function isSlowDown(status: number | undefined, retryAfter: string | undefined): boolean {
  return status === 429 || (status === 503 && retryAfter !== undefined);
}

/** A JSON-RPC -32023 (rate limited, draft SEP-3304) and the wait its data asks for, whatever the HTTP status;
 * only the probe reads bodies, so only it sees this form of a slow-down (architecture.md §2.8). */
export function rateLimited(json: unknown): { retryAfterSeconds?: number } | null {
  const err = looseError(json);
  if (!err || err.code !== RATE_LIMITED_CODE) return null;
  const ms = (err.data as { retryAfterMs?: unknown } | null | undefined)?.retryAfterMs;
  return typeof ms === "number" && Number.isFinite(ms) && ms >= 0 ? { retryAfterSeconds: Math.ceil(ms / 1000) } : {};
}

/** Seconds from a Retry-After value (delta-seconds or HTTP-date), or undefined when unparseable. */
export function parseRetryAfter(value: string | undefined, now: Date = new Date()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
