import type { Db } from "@/db/client";
import { ReprobeForm } from "@/lib/api/schemas";
import { FORM_KEY_META, crossSitePost, newFormKey, verifyFormToken } from "@/lib/site/reprobe-form";
import { localePath } from "@/lib/site/chrome";
import { serverPath } from "@/lib/site/paths";
import { metaOnce, requestReprobe, type ReprobeLimits } from "@/lib/store/reprobe";
import { refuseWhileUnwritable, unwritableAnswer } from "./unwritable";

export interface ReprobeDeps {
  db: Db;
  now: () => Date;
  limits: ReprobeLimits;
  publicBaseUrl?: string;
  /** Starts the one-server round in the background (it may find the round lock taken: the request stays due). */
  start: (serverId: number) => void;
}

const plain = (status: number, text: string) =>
  new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

/** Post/Redirect/Get: every answer a browser can act on is a 303 back to the server page with the outcome. */
function backTo(name: string, outcome: string, retryAt?: string, lang: "en" | "zh" = "en"): Response {
  const q = new URLSearchParams({ reprobe: outcome, ...(retryAt ? { retry: retryAt } : {}) });
  const location = `${localePath(lang, serverPath(name))}?${q}#reprobe`;
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

export function ownOrigins(request: Request, publicBaseUrl: string | undefined): string[] {
  const origins = [new URL(request.url).origin];
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (host) origins.push(`${request.headers.get("x-forwarded-proto") ?? new URL(request.url).protocol.replace(":", "")}://${host}`);
  if (publicBaseUrl) origins.push(new URL(publicBaseUrl).origin);
  return origins;
}

// POST /api/reprobe (form: server, token) → 303 to /servers/<name>?reprobe=queued|<refusal>; 503 with a JSON error while the
// database cannot be written.
export async function postReprobe(request: Request, deps: ReprobeDeps): Promise<Response> {
  try {
    return await reprobe(request, deps);
  } catch (e) {
    const unwritable = unwritableAnswer(deps.db, e);
    if (unwritable) return unwritable;
    throw e;
  }
}

async function reprobe(request: Request, deps: ReprobeDeps): Promise<Response> {
  const cross = crossSitePost(request.headers, ownOrigins(request, deps.publicBaseUrl));
  if (cross) return plain(403, `Refused: this form only accepts posts from this site's own pages (${cross}).`);
  let fields: Record<string, unknown>;
  try {
    fields = Object.fromEntries(await request.formData());
  } catch {
    return plain(400, "Send the form fields server and token as a form post.");
  }
  const form = ReprobeForm.safeParse(fields);
  if (!form.success) return plain(400, "Send the form fields server and token as a form post.");
  const { server, token, lang } = form.data;
  const now = deps.now();
  const refused = refuseWhileUnwritable(deps.db, now);
  if (refused) return refused;
  if (!verifyFormToken(metaOnce(deps.db, FORM_KEY_META, newFormKey), server, token, now))
    return backTo(server, "form_expired", undefined, lang);
  const answer = requestReprobe(deps.db, server, now, deps.limits);
  if (!answer.queued) {
    if (answer.refusal === "unknown_server") return plain(404, "No server by that registry name.");
    return backTo(server, answer.refusal, answer.retryAt, lang);
  }
  deps.start(answer.serverId);
  return backTo(server, "queued", undefined, lang);
}
