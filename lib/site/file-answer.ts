// How a stored file is answered over HTTP (the daily open-data files, architecture.md §3): one strong ETag from its size and
// modification time (the file is written once, under a temporary name, then renamed), 304 for a matching If-None-Match,
// 206 for one satisfiable byte range, 416 for a range past the end. Pure: the route handler and the front both use it.

export interface FileFacts {
  size: number;
  mtimeMs: number;
}

export interface FileAnswer {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  /** The bytes to send, inclusive; absent for 304 and 416. */
  range?: { start: number; end: number };
}

/** How a day's servers file is typed and kept (the renderer's route and the front answer it alike). */
export const SERVERS_FILE_HEADERS = { contentType: "application/gzip", cacheControl: "public, max-age=3600" };

export const fileEtag = (f: FileFacts) => `"${f.size.toString(16)}-${Math.floor(f.mtimeMs).toString(16)}"`;

/** One `bytes=` range (`a-b`, `a-`, `-n`) against `size`: the bytes, "unsatisfiable", or null to send the whole file
 * (several ranges, or a header this does not read, are answered whole, as RFC 9110 allows). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return "unsatisfiable";
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

const matches = (header: string | undefined, etag: string) =>
  header !== undefined && header.split(",").some((t) => t.trim() === "*" || t.trim().replace(/^W\//, "") === etag);

export function fileAnswer(
  f: FileFacts,
  req: { ifNoneMatch?: string; range?: string; ifRange?: string },
  options: { contentType: string; cacheControl: string },
): FileAnswer {
  const etag = fileEtag(f);
  const base = {
    etag,
    "last-modified": new Date(f.mtimeMs).toUTCString(),
    "accept-ranges": "bytes",
    "cache-control": options.cacheControl,
  };
  if (matches(req.ifNoneMatch, etag)) return { status: 304, headers: base };
  const whole = {
    status: 200 as const,
    headers: { ...base, "content-type": options.contentType, "content-length": String(f.size) },
    range: { start: 0, end: f.size - 1 },
  };
  // If-Range with another validator: the file changed, so the whole new one.
  if (req.range === undefined || (req.ifRange !== undefined && req.ifRange.trim() !== etag)) return whole;
  const r = parseRange(req.range, f.size);
  if (r === null) return whole;
  if (r === "unsatisfiable") return { status: 416, headers: { ...base, "content-range": `bytes */${f.size}` } };
  return {
    status: 206,
    headers: {
      ...base,
      "content-type": options.contentType,
      "content-length": String(r.end - r.start + 1),
      "content-range": `bytes ${r.start}-${r.end}/${f.size}`,
    },
    range: r,
  };
}
