import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { originFrom } from "@/lib/site/origin";

/** The process's database handle, opened on first use. */
export function siteDb() {
  return getDb(getConfig());
}

/** Absolute origin for copyable links: PUBLIC_BASE_URL when set, else the request's own host. */
export async function siteOrigin(): Promise<string> {
  return originFrom(await headers(), getConfig().publicBaseUrl);
}
