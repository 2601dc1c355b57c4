import { badgeHandler } from "../../../_lib/badge-handler";

export const dynamic = "force-dynamic";

// GET /api/badge/<registry name>[?check=<check id> | ?metric=latency] → shields.io endpoint JSON.
export const GET = badgeHandler("shields");
