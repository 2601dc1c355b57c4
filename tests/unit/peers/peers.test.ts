import { describe, expect, test } from "vitest";
import { createAddressPolicy, probeServer } from "@/lib/probe";
import { judge, observationsOf, observationSentence } from "@/lib/checks";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { PEERS } from "@/tests/fixtures/peers";
import { protocolVersionOf, reasonProblem, statesOf } from "../zoo/harness";

const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });

// One peer at a time: fastmcp picks its own port, and the SDKs are heavy to start.
describe("probe against real MCP servers from npm", () => {
  test.each(Object.entries(PEERS))("%s", async (name, peer) => {
    const running = await peer.start();
    try {
      const obs = await probeServer(
        { url: running.url, transport: "streamable-http" },
        { addressPolicy: policy, limits: { deadlineMs: 20_000 } },
      );
      const results = judge(obs);
      const where = `${name}: ${peer.about}\n${results.map((r) => `${r.check}=${r.state}: ${r.reason}`).join("\n")}`;
      console.log(
        `[peers] ${name}: era ${obs.era} ${protocolVersionOf(obs) ?? "-"}; ${results.map((r) => `${r.check}=${r.state}`).join(" ")}`,
      );

      expect(statesOf(results), where).toEqual(peer.states);
      expect(obs.era, where).toBe(peer.era);
      if (peer.protocolVersion) expect(protocolVersionOf(obs), where).toBe(peer.protocolVersion);
      for (const r of results) expect(reasonProblem(r.reason), `${name} ${r.check}: "${r.reason}"`).toBeNull();
      for (const [check, fragment] of Object.entries(peer.reasonIncludes ?? {})) {
        expect(results.find((r) => r.check === check)?.reason.toLowerCase(), `${name} ${check}`).toContain(fragment);
      }
      expect(results.map((r) => r.check)).toEqual([...CHECK_IDS]);
      if (peer.readable && obs.toolsList?.kind === "complete") {
        expect(obs.toolsList.tools.map((t) => t.name).sort()).toEqual(["echo", "search_files"]);
        // architecture.md §2.9: what real SDKs put on the wire (generated JSON Schema, titles, annotations) carries no
        // observation; a hit here is a false positive of a rule.
        const observations = observationsOf(obs);
        console.log(`[peers] ${name}: ${obs.toolsList.tools.length} tools, ${observations.length} observations`);
        expect(
          observations.map((o) => observationSentence(o)),
          where,
        ).toEqual([]);
      }
    } finally {
      await running.close();
    }
  });
});
