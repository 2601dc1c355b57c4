// The site's side of the wire (architecture.md §8): one probe as a NATS request to a region's subject, answered by one
// agent of its queue group. The region of an answer is the subject it was asked on (the broker's word); what the
// agent says of itself is kept for the log only. No responders, a timeout, a broken or oversized answer: that region
// did not answer this probe, which is never a verdict on the server.
import { randomBytes } from "node:crypto";
import { errors, type NatsConnection } from "@nats-io/transport-node";
import type { ProbeObservation } from "../probe/types";
import { decodeAnswer, encodeRequest, MAX_ANSWER_BYTES, type ProbeRequestInput } from "./wire";
import { probeSubject, type NoAnswerCause } from "../vocabulary/regions";

export type RegionAnswer =
  | { ok: true; region: string; observation: ProbeObservation; agent: string; ms: number }
  | { ok: false; region: string; cause: NoAnswerCause; problem: string; ms: number };

export interface Dispatcher {
  /** Sends one probe to `region` and waits for its answer at most `timeoutMs`. Never throws. */
  probe(region: string, request: Omit<ProbeRequestInput, "v" | "id">, timeoutMs: number): Promise<RegionAnswer>;
  /** Whether the broker connection is up right now. */
  connected(): boolean;
  close(): Promise<void>;
}

export interface DispatcherDeps {
  /** The connection, once made; it may still be under way (or the broker down) when probes are asked for. */
  connection: Promise<NatsConnection>;
  /** How long the first probes wait for a connection still under way. Default 5 s. */
  connectWaitMs?: number;
  log?: (line: string) => void;
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const log = deps.log ?? ((l: string) => console.log(l));
  let nc: NatsConnection | null = null;
  let failed: string | null = null;
  let linked = false;
  let closed = false;
  let firstWait: Promise<void> | undefined;
  deps.connection.then(
    (c) => {
      // A connection that arrives after close() is closed at once.
      if (closed) return void c.close().catch(() => undefined);
      nc = c;
      linked = true;
      void (async () => {
        for await (const s of c.status()) {
          if (s.type === "disconnect") linked = false;
          else if (s.type === "reconnect") linked = true;
        }
      })().catch(() => undefined);
    },
    (e: unknown) => (failed = (e as Error).message),
  );
  const isUp = () => nc !== null && linked && !nc.isClosed() && !nc.isDraining();
  return {
    connected: isUp,
    async probe(region, req, timeoutMs) {
      const t0 = performance.now();
      const ms = () => Math.round(performance.now() - t0);
      const id = randomBytes(8).toString("hex");
      const none = (cause: NoAnswerCause, problem: string): RegionAnswer => ({ ok: false, region, cause, problem, ms: ms() });
      // The first probes wait a little for a connection under way; once that wait ran out, the broker counts as down.
      if (!nc && !closed) {
        firstWait ??= Promise.race([
          deps.connection.then(
            () => undefined,
            () => undefined,
          ),
          new Promise<void>((r) => setTimeout(r, deps.connectWaitMs ?? 5_000).unref()),
        ]);
        await firstWait;
      }
      if (!nc || !isUp()) return none("nats_down", failed ?? "the site is not connected to NATS");
      let data: Uint8Array;
      try {
        const msg = await nc.request(probeSubject(region), encodeRequest({ v: 1, id, ...req }), { timeout: timeoutMs });
        data = msg.data;
      } catch (e) {
        if (e instanceof errors.RequestError && e.isNoResponders()) return none("no_responders", "no agent of the region is listening");
        if (e instanceof errors.TimeoutError || (e instanceof errors.RequestError && e.cause instanceof errors.TimeoutError)) {
          return none("timeout", `no answer within ${timeoutMs} ms`);
        }
        return none("nats_down", (e as Error).message);
      }
      if (data.byteLength > MAX_ANSWER_BYTES) {
        log(`[regions] ${region}: answer of ${data.byteLength} bytes refused (cap ${MAX_ANSWER_BYTES})`);
        return none("too_large", `the answer is ${data.byteLength} bytes`);
      }
      const decoded = decodeAnswer(data, { id, url: req.url });
      if (!decoded.ok) {
        log(`[regions] ${region}: answer for ${req.url} refused: ${decoded.problem}`);
        return none(decoded.cause, decoded.problem);
      }
      return { ok: true, region, observation: decoded.answer.observation, agent: decoded.answer.agent, ms: ms() };
    },
    async close() {
      closed = true;
      if (nc && !nc.isClosed()) await nc.close();
    },
  };
}
