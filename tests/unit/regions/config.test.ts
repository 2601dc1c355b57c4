import { describe, expect, test } from "vitest";
import { parseConfig } from "@/lib/config";
import { parseAgentArgs } from "@/lib/cli/agent";
import { UsageError } from "@/lib/cli/args";
import { roundRegionsFrom } from "@/lib/rounds/regions";

// The contract names of architecture.md §8: NATS_URL, NATS_USER/NATS_PASSWORD, NATS_CREDS, PROBE_REGIONS, PROBE_LOCAL_REGION.

describe("configuration of several regions", () => {
  test("without NATS_URL there are no regions: the round probes in-process as local", () => {
    const c = parseConfig({ PROBE_REGIONS: "a,b" });
    expect(c.regions).toBeUndefined();
    expect(roundRegionsFrom(c)).toBeUndefined();
  });

  test("NATS_URL with PROBE_REGIONS and PROBE_LOCAL_REGION", () => {
    const c = parseConfig({
      NATS_URL: "nats://127.0.0.1:4222",
      NATS_USER: "site",
      NATS_PASSWORD: "pw",
      PROBE_REGIONS: "eu-west, us-east",
      PROBE_LOCAL_REGION: "home",
    });
    expect(roundRegionsFrom(c)).toEqual({
      regions: ["eu-west", "us-east", "home"],
      local: "home",
      nats: { url: "nats://127.0.0.1:4222", user: "site", password: "pw" },
    });
  });

  test("REGION_RECOVERY_SECONDS sets the recovery clock's period; unset, the round keeps its default", () => {
    const c = parseConfig({ NATS_URL: "nats://x:1", PROBE_REGIONS: "a,b", REGION_RECOVERY_SECONDS: "5" });
    expect(roundRegionsFrom(c)?.recoveryIntervalMs).toBe(5_000);
    expect(roundRegionsFrom(parseConfig({ NATS_URL: "nats://x:1", PROBE_REGIONS: "a,b" }))?.recoveryIntervalMs).toBeUndefined();
  });

  test.each([
    [{ NATS_URL: "nats://x:1", PROBE_REGIONS: "EU" }, /not a region id/],
    [{ NATS_URL: "nats://x:1", PROBE_REGIONS: "a,a" }, /names a region twice/],
    [{ NATS_URL: "nats://x:1", PROBE_LOCAL_REGION: "a" }, /PROBE_LOCAL_REGION needs PROBE_REGIONS/],
    [{ NATS_URL: "nats://x:1", NATS_USER: "u", NATS_CREDS: "/f" }, /set one of them/],
  ])("%o is refused with a message naming it", (env, message) => {
    expect(() => parseConfig(env)).toThrow(message);
  });

  test("npm run agent needs --region with a valid id", () => {
    expect(parseAgentArgs(["--region", "eu-west"])).toEqual({ region: "eu-west" });
    expect(() => parseAgentArgs([])).toThrow(UsageError);
    expect(() => parseAgentArgs(["--region", "Bad Region"])).toThrow(/not a region id/);
    expect(() => parseAgentArgs(["--region"])).toThrow(/needs a value/);
  });
});
