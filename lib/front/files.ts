import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { fileAnswer, SERVERS_FILE_HEADERS } from "../site/file-answer";
import { serversFileDay } from "../site/paths";
import { createByteLru } from "./byte-lru";

// The open-data files (architecture.md §3): the front answers a day's servers file from the open-data folder itself,
// as a file (ETag, 304, one byte range), without the renderer. Recently asked files are held in memory under their
// ETag (size and modification time), so a download costs a stat and a write. A name that is malformed or names no
// file goes to the renderer, which words the 400 and the 404 in one place (app/_lib/data-file.ts).

export interface FileServer {
  /** Answers the request when `name` is a day file that exists; false leaves it to the renderer. */
  serve(req: IncomingMessage, res: ServerResponse, name: string): boolean;
}

const one = (h: string | string[] | undefined) => (Array.isArray(h) ? h.join(", ") : h);

export function createFileServer(options: { dir: string; maxBytes: number }): FileServer {
  const held = createByteLru<Buffer>(options.maxBytes);
  const bytesOf = (file: string, etag: string, size: number): Buffer | undefined => {
    const key = `${file}\n${etag}`;
    const kept = held.get(key);
    if (kept) return kept;
    if (size > options.maxBytes / 4) return undefined;
    const bytes = fs.readFileSync(file);
    // The file changed between the stat and the read: answer from the stream, which reads what the stat saw.
    if (bytes.length !== size) return undefined;
    held.set(key, bytes, bytes.length);
    return bytes;
  };
  return {
    serve(req, res, name) {
      const day = serversFileDay(name);
      if (day === null || day === "malformed") return false;
      const file = path.join(options.dir, name);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat?.isFile()) return false;
      const a = fileAnswer(
        stat,
        { ifNoneMatch: one(req.headers["if-none-match"]), range: one(req.headers.range), ifRange: one(req.headers["if-range"]) },
        SERVERS_FILE_HEADERS,
      );
      res.writeHead(a.status, a.headers);
      if (!a.range || a.range.end < a.range.start || req.method === "HEAD") {
        res.end();
        return true;
      }
      const bytes = bytesOf(file, String(a.headers.etag), stat.size);
      if (bytes) res.end(bytes.subarray(a.range.start, a.range.end + 1));
      else
        fs.createReadStream(file, { start: a.range.start, end: a.range.end })
          .on("error", () => res.destroy())
          .pipe(res);
      return true;
    },
  };
}
