import { badgeHandler } from "../../_lib/badge-handler";

export const dynamic = "force-dynamic";

// GET /badge/<registry name>[?check=<check id> | ?metric=latency] → SVG. Unknown servers get a grey "unknown" badge with 404.
export const GET = badgeHandler("svg");
