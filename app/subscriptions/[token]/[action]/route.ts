import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { subscriptionPath } from "@/lib/rounds/notify/messages";
import { postManage } from "../../../api/_lib/subscriptions";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ token: string; action: string }> };

// POST /subscriptions/<token>/unsubscribe (also List-Unsubscribe-Post's one-click target), …/events, …/delete, …/resume.
export async function POST(request: Request, { params }: Params) {
  const { token, action } = await params;
  const config = getConfig();
  return postManage(request, token, action, { db: getDb(config), publicBaseUrl: config.publicBaseUrl });
}

// A link opened in a browser (or fetched by a mail scanner) changes nothing: it shows the manage page.
export async function GET(_request: Request, { params }: Params) {
  return new Response(null, { status: 303, headers: { location: subscriptionPath((await params).token), "cache-control": "no-store" } });
}
