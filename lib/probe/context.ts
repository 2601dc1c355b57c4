import type { HttpAnswer, HttpSession } from "./transport/http";
import { isSlowDown, parseRetryAfter, rateLimited } from "./host-gate";
import { RATE_LIMITED_CODE } from "./protocol";
import { challengeProblem, validChallenges } from "./www-authenticate";
import type { BrokenChallenge, ExchangePhase, ProbeLimits, SeenChallenge, SlowDown } from "./types";

/** What every step of one probe shares: the HTTP session, and the signals that stop or redirect it. */
export class ProbeContext {
  slowDown?: SlowDown;
  /** Every 401/403 with a structurally valid challenge, in order. */
  readonly challenges: SeenChallenge[] = [];
  /** Every 401/403 whose WWW-Authenticate was present but did not parse, in order. */
  readonly brokenChallenges: BrokenChallenge[] = [];

  constructor(
    readonly http: HttpSession,
    readonly limits: ProbeLimits,
    readonly now: () => Date,
    readonly deadline: AbortSignal,
  ) {}

  /** Records what any answer says beyond its own step: a slow-down, a credential challenge. */
  note(a: HttpAnswer & { json?: unknown }, phase: ExchangePhase): void {
    if (a.status === undefined) return;
    const limited = rateLimited(a.json);
    if ((isSlowDown(a.status, a.headers["retry-after"]) || limited) && !this.slowDown) {
      const sd: SlowDown = { phase, status: a.status, seq: a.seq };
      const fromHeader = parseRetryAfter(a.headers["retry-after"], this.now());
      // architecture.md §2.8: a -32023's data.retryAfterMs is read like Retry-After; the longer of the two is honoured.
      const secs = [fromHeader, limited?.retryAfterSeconds].filter((v): v is number => v !== undefined);
      if (secs.length) sd.retryAfterSeconds = Math.max(...secs);
      if (limited) sd.code = RATE_LIMITED_CODE;
      this.slowDown = sd;
    }
    const seen = this.challengeOf(a, phase);
    if (seen) this.challenges.push(seen);
    const broken = this.brokenChallengeOf(a, phase);
    if (broken) this.brokenChallenges.push(broken);
  }

  brokenChallengeOf(a: HttpAnswer, phase: ExchangePhase): BrokenChallenge | null {
    if (a.status !== 401 && a.status !== 403) return null;
    const problem = challengeProblem(a.wwwAuthenticate);
    if (problem === null || a.status === undefined) return null;
    return { phase, status: a.status, header: a.wwwAuthenticate.join(", ").slice(0, 300), problem, seq: a.seq };
  }

  challengeOf(a: HttpAnswer, phase: ExchangePhase): SeenChallenge | null {
    if (a.status !== 401 && a.status !== 403) return null;
    const challenges = validChallenges(a.wwwAuthenticate);
    return challenges ? { phase, status: a.status, challenges, seq: a.seq } : null;
  }

  /** True when nothing more may be sent: slowed down or out of time. */
  get stopped(): boolean {
    return this.slowDown !== undefined || this.deadline.aborted;
  }
}
