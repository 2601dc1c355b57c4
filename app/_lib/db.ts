import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";

/** The process's database handle, opened on first use. */
export function siteDb() {
  return getDb(getConfig());
}

/** Absolute origin for copyable links: PUBLIC_BASE_URL when set, else the request's own host. */
export async function siteOrigin(): Promise<string> {
  const configured = getConfig().publicBaseUrl;
  if (configured) return configured.replace(/\/$/, "");
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost";
  const proto = h.get("x-forwarded-proto") ?? (host.startsWith("127.0.0.1") || host.startsWith("localhost") ? "http" : "https");
  return `${proto}://${host}`;
}
