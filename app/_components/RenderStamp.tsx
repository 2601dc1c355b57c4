import type { Lang } from "@/lib/site/labels";
import { RENDER_STAMP_TEXT } from "@/lib/site/list-text";

// Process-wide, so it counts renders of every cached page: tests read it to prove a page was not re-rendered.
const COUNT = Symbol.for("mcp-status.site.renders");
const g = globalThis as { [COUNT]?: number };

/** When this HTML was rendered, visible, so a reader of a cached page knows how fresh it is. */
export function RenderStamp({ note, lang = "en" }: { note: string; lang?: Lang }) {
  const [before, between] = RENDER_STAMP_TEXT[lang];
  const at = new Date().toISOString();
  const n = (g[COUNT] = (g[COUNT] ?? 0) + 1);
  return (
    <p className="sub render-stamp" data-rendered-at={at} data-render={n}>
      {before}
      <time dateTime={at}>{at.slice(0, 19).replace("T", " ")} UTC</time>
      {between}
      {note}
    </p>
  );
}
