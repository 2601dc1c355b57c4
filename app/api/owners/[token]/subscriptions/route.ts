import { getConfig } from "@/lib/config";
import { createAddressPolicy } from "@/lib/probe";
import { originFrom } from "@/lib/site/origin";
import { ownerRouteDeps } from "../../../_lib/owner-deps";
import { postOwnerSubscription } from "../../../_lib/owners";

export const dynamic = "force-dynamic";

// POST /api/owners/<token>/subscriptions (architecture.md §11): §9's body; the owner events go to these subscriptions alone.
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const config = getConfig();
  const n = config.notifications;
  return postOwnerSubscription(request, (await params).token, {
    ...ownerRouteDeps(request),
    subscribe: {
      policy: createAddressPolicy({ allowPrivate: config.allowPrivateNetworks }),
      emailOn: n.smtpUrl !== undefined,
      hourlyCap: n.subscribeHourlyCap,
      siteUrl: originFrom(request.headers, config.publicBaseUrl),
    },
  });
}
