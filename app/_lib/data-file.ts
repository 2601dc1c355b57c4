import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ApiShape } from "@/lib/api/schemas";
import { fileAnswer, SERVERS_FILE_HEADERS } from "@/lib/site/file-answer";
import { serversFileDay } from "@/lib/site/paths";

// GET /data/servers-YYYY-MM-DD.jsonl.gz when the renderer answers it (plain `next start`; under `npm start` the front serves
// the folder itself): the file as it lies, with its ETag, 304 and one byte range. A malformed day is 400, a missing one 404.

const error = (status: number, body: ApiShape<"ErrorAnswer">) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

export function serversFileResponse(dir: string, name: string, headers: Headers): Response {
  const day = serversFileDay(name);
  if (day === "malformed")
    return error(400, {
      error: "bad_request",
      message: `${name}: the day must be a calendar day written YYYY-MM-DD, as in servers-2026-11-30.jsonl.gz.`,
    });
  const file = day === null ? null : path.join(dir, name);
  const stat = file ? fs.statSync(file, { throwIfNoEntry: false }) : undefined;
  if (!file || !stat?.isFile())
    return error(404, { error: "not_found", message: `No file ${name}: files are kept for the last 30 days (see /data/).` });
  const a = fileAnswer(
    stat,
    {
      ifNoneMatch: headers.get("if-none-match") ?? undefined,
      range: headers.get("range") ?? undefined,
      ifRange: headers.get("if-range") ?? undefined,
    },
    SERVERS_FILE_HEADERS,
  );
  if (!a.range || a.range.end < a.range.start) return new Response(null, { status: a.status, headers: a.headers });
  const stream = fs.createReadStream(file, { start: a.range.start, end: a.range.end });
  return new Response(Readable.toWeb(stream) as ReadableStream, { status: a.status, headers: a.headers });
}
