import { ZOO_EXPECTATIONS } from "./expectations";

/** A zoo server's remote as a registry lists it for `url`: its transport, and for the reach cases (suite 0.15.0) the
 * headers and URL variables their expectation names, so every listing of the zoo probes it as the zoo tests do. */
export function zooRemote(name: string, url: string): { type: string; url: string } & Record<string, unknown> {
  const exp = ZOO_EXPECTATIONS[name];
  const type = exp?.transport ?? "streamable-http";
  return exp?.registry ? { type, url, ...exp.registry(url) } : { type, url };
}
