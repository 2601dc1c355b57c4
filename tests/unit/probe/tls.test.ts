// architecture.md §2.8: every https probe records the certificate's issuer and expiry; a certificate the probe does not
// accept gets no request on its connection. Loopback HTTPS servers with certificates this test makes.
import { describe, expect, test } from "vitest";
import { judge } from "@/lib/checks";
import { createAddressPolicy, probeServer, SharedConnections } from "@/lib/probe";
import { DEFAULT_LIMITS } from "@/lib/probe/types";
import { certificateView } from "@/lib/site/certificate";
import { startZooServer } from "@/lib/demo/zoo";
import { testCertificates, type TlsFixture } from "../../fixtures/tls";

const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
const limits = { deadlineMs: 10_000 };

async function probeTls(fixture: TlsFixture, o: { trusted?: boolean; connections?: SharedConnections } = {}) {
  const certs = await testCertificates();
  const server = await startZooServer("tls-valid", { tls: certs.leaf[fixture] });
  try {
    const obs = await probeServer(
      { url: server.url, transport: "streamable-http" },
      {
        addressPolicy: policy,
        limits,
        ...(o.trusted === false ? {} : { ca: certs.ca }),
        ...(o.connections ? { connections: o.connections } : {}),
      },
    );
    return { obs, log: [...server.log], certs };
  } finally {
    await server.close();
  }
}

describe("TLS certificate facts", () => {
  test("a valid certificate: issuer and expiry recorded, the server read", async () => {
    const { obs, certs } = await probeTls("valid");
    expect(judge(obs).find((r) => r.check === "tools_list")!.state).toBe("verified");
    expect(obs.certificate).toMatchObject({ issuer: "mcp-status test CA", altNames: ["IP Address:127.0.0.1"] });
    expect(obs.certificate!.rejected).toBeUndefined();
    expect(Math.abs(Date.parse(obs.certificate!.validTo!) - certs.leaf.valid.validTo.getTime())).toBeLessThan(1_000);
    const view = certificateView(obs.certificate, new Date());
    expect(view).toMatchObject({ warn: false, rejected: null });
    expect(view!.daysLeft).toBeGreaterThanOrEqual(89);
  });

  test("a certificate expiring in five days is accepted, and the page's view warns", async () => {
    const { obs } = await probeTls("expiring_soon");
    expect(obs.handshake?.kind).toBe("modern");
    expect(certificateView(obs.certificate, new Date())).toMatchObject({ daysLeft: 5, warn: true });
  });

  test.each([
    ["expired", "CERT_HAS_EXPIRED", "tls_expired"],
    ["wrong_name", "ERR_TLS_CERT_ALTNAME_INVALID", "tls_wrong_name"],
    ["unknown_issuer", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "tls_unknown_issuer"],
  ] as const)("a certificate %s is refused before any request, and still recorded", async (fixture, code, hint) => {
    const { obs, log } = await probeTls(fixture);
    expect(log).toEqual([]);
    expect(obs.exchanges[0]).toMatchObject({ network: "tls", errorCode: code });
    expect(obs.certificate?.rejected).toBe(code);
    expect(judge(obs).find((r) => r.check === "handshake")!.hint?.code).toBe(hint);
  });

  test("the expired certificate's date is in the view, with days left below zero", async () => {
    const { obs, certs } = await probeTls("expired");
    expect(obs.certificate!.validTo!.slice(0, 10)).toBe(certs.leaf.expired.validTo.toISOString().slice(0, 10));
    expect(certificateView(obs.certificate, new Date())).toMatchObject({ warn: true, rejected: "CERT_HAS_EXPIRED" });
    expect(certificateView(obs.certificate, new Date())!.daysLeft).toBeLessThan(0);
  });

  test("the test CA is trusted only when handed in as the probe's ca option", async () => {
    const { obs, log } = await probeTls("valid", { trusted: false });
    expect(log).toEqual([]);
    expect(obs.certificate?.rejected).toBe("UNABLE_TO_VERIFY_LEAF_SIGNATURE");
  });

  test("shared connections never resume a refused certificate's session into an accepted one", async () => {
    const certs = await testCertificates();
    const server = await startZooServer("tls-valid", { tls: certs.leaf.wrong_name });
    const connections = new SharedConnections({ policy, limits: DEFAULT_LIMITS, ca: certs.ca });
    try {
      for (let i = 0; i < 3; i++) {
        const obs = await probeServer({ url: server.url, transport: "streamable-http" }, { addressPolicy: policy, limits, connections });
        expect(obs.exchanges[0]!.errorCode).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
      }
      expect(server.log).toEqual([]);
    } finally {
      await connections.close();
      await server.close();
    }
  });
});
