// A region's agent (architecture.md §8): answers the probes sent on its region's subject, as one of the region's queue
// group, with the observation its probe function returns. It holds no database, no registry and no schedule. On
// stop it takes no new probe and lets those in flight finish and answer.
import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import type { HostGate, ProbeObservation } from "../probe";
import { decodeRequest, encodeAnswer, WIRE_VERSION, type ProbeRequest } from "./wire";
import { agentQueue, probeSubject } from "../vocabulary/regions";

export interface AgentDeps {
  nc: NatsConnection;
  region: string;
  /** How this agent names itself in answers and logs (host:pid). */
  agent: string;
  /** Probes one server as the request says; never throws for anything a server does. */
  probe: (request: ProbeRequest) => Promise<ProbeObservation>;
  log?: (line: string) => void;
}

export interface RunningAgent {
  /** Probes being run now. */
  inFlight(): number;
  served(): number;
  /** Stops taking probes, waits for those in flight to answer, then closes the connection. */
  stop(): Promise<void>;
}

export function serveProbes(deps: AgentDeps): RunningAgent {
  const log = deps.log ?? ((l: string) => console.log(l));
  const running = new Set<Promise<void>>();
  let served = 0;
  const sub: Subscription = deps.nc.subscribe(probeSubject(deps.region), {
    queue: agentQueue(deps.region),
    callback: (err, msg) => {
      if (err) {
        log(`[agent] ${deps.region}: subscription ended: ${err.message}`);
        return;
      }
      const decoded = decodeRequest(msg.data);
      if (!decoded.ok) {
        log(`[agent] ${deps.region}: request refused: ${decoded.problem}`);
        return;
      }
      const req = decoded.request;
      const job = (async () => {
        const t0 = performance.now();
        const observation = await deps.probe(req);
        try {
          msg.respond(encodeAnswer({ v: WIRE_VERSION, id: req.id, region: deps.region, agent: deps.agent, observation }));
          served++;
          log(
            `[agent] ${deps.region}: ${req.url} probed in ${Math.round(performance.now() - t0)} ms, ${observation.exchanges.length} requests`,
          );
        } catch (e) {
          log(`[agent] ${deps.region}: answer for ${req.url} not sent: ${(e as Error).message}`);
        }
      })();
      running.add(job);
      void job.finally(() => running.delete(job));
    },
  });
  return {
    inFlight: () => running.size,
    served: () => served,
    async stop() {
      // Unsubscribe first so the queue group hands new probes to the region's other agents.
      await sub.drain().catch(() => undefined);
      while (running.size > 0) await Promise.all([...running]);
      await deps.nc.drain().catch(() => undefined);
    },
  };
}

/** architecture.md §2.5 inside one probe: requests to the server's host at least `delayMs` apart (its Crawl-delay),
 * counted from the end of the previous one; other hosts (auth metadata) one request at a time as the probe sends them. */
export function spacingGate(host: string, delayMs: number): HostGate {
  let lastEndMs = -Infinity;
  const key = host.toLowerCase();
  return {
    async acquire(h) {
      if (h.toLowerCase() === key && delayMs > 0) {
        const wait = lastEndMs + delayMs - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      return () => {
        if (h.toLowerCase() === key) lastEndMs = Date.now();
      };
    },
  };
}
