import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { SearchParams } from "@/lib/site/query";
import { firstParam } from "@/lib/site/query";
import { manageView } from "@/lib/store/subscriptions";
import { ManageSubscriptions } from "../../_components/ManageSubscriptions";
import { siteDb } from "../../_lib/db";

// GET /subscriptions/<token>: the manage page (architecture.md §10), a capability URL: never cached, never indexed, and no
// Referer carries it to another site (same-origin, not no-referrer: that makes the browser post its own forms with Origin: null).
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your subscriptions", robots: { index: false, follow: false }, referrer: "same-origin" };

type Params = { params: Promise<{ token: string }>; searchParams: Promise<SearchParams> };

const GONE: Record<string, string> = {
  deleted: "Deleted: every subscription of this address and the address itself are gone; nothing more is sent.",
  unsubscribed: "Unsubscribed: nothing more is sent for that server, and an address left with no subscription is deleted.",
};

export default async function ManagePage({ params, searchParams }: Params) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const done = firstParam(query, "done") ?? null;
  const view = manageView(siteDb(), token);
  if (!view) {
    if (done && GONE[done])
      return (
        <div role="status">
          <h1>Your subscriptions</h1>
          <p className="notice ok">{GONE[done]}</p>
        </div>
      );
    notFound();
  }
  return <ManageSubscriptions view={view} token={token} lang={view.lang === "zh" ? "zh" : "en"} done={done} />;
}
