import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { getConfirm } from "../../../../api/_lib/subscriptions";

export const dynamic = "force-dynamic";

// GET /zh/subscriptions/confirm/<token>: a Chinese subscriber's confirmation link (the English one is at the root;
// proxy.ts sends /en/… here to the 404). Once the subscription is gone, its 404 still answers in Chinese.
export async function GET(_request: Request, { params }: { params: Promise<{ lang: string; token: string }> }) {
  const { lang, token } = await params;
  return getConfirm(token, { db: getDb(getConfig()), now: new Date(), lang: lang === "zh" ? "zh" : "en" });
}
