import type { Metadata } from "next";
import type { SearchParams } from "@/lib/site/query";
import { ManagePage, manageMetadata } from "../../_components/ManageSubscriptions";

// GET /subscriptions/<token>: the manage page (architecture.md §10), a capability URL: never cached, never indexed, and no
// Referer carries it to another site (same-origin, not no-referrer: that makes the browser post its own forms with Origin: null).
// Its Chinese twin is app/[lang]/subscriptions/[token]; a Chinese subscriber's link opened here is sent there.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return manageMetadata((await params).token, "en");
}

export default async function Page({ params, searchParams }: Params) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  return <ManagePage token={token} urlLang="en" query={query} />;
}
