// architecture.md §2.10: which clients can connect, from the run's observation, as the servers row keeps it. A fact
// beside the checks: it moves no state, schedule, uptime or incident.
import { judgeClients } from "../checks/clients";
import type { ProbeObservation } from "../probe/types";
import type { ServerRunUpdate } from "../store/servers/round";

export function clientsFields(obs: ProbeObservation): Pick<ServerRunUpdate, "clientsInitializeFirst" | "clientsDiscoverFirst" | "clients"> {
  const c = judgeClients(obs);
  return { clientsInitializeFirst: c.initializeFirst.state, clientsDiscoverFirst: c.discoverFirst.state, clients: JSON.stringify(c) };
}
