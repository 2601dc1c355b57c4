// A response body with its Content-Encoding undone, the compressed bytes capped as well as the decoded ones
// (architecture.md §5): a gzip header can promise an endless body.
import { Transform, pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/** The compressed body passed its cap before it was decoded. */
export class BodyCapError extends Error {}

/** The body with its Content-Encoding undone, compressed bytes capped too. */
export function decoded(body: Readable, encoding: string, cap: number): AsyncIterable<unknown> {
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : null;
  if (!decoder) return body;
  let raw = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      raw += chunk.length;
      if (raw > cap) cb(new BodyCapError(`compressed body exceeded ${cap} bytes`));
      else cb(null, chunk);
    },
  });
  return pipeline(body, counter, decoder, () => undefined);
}
