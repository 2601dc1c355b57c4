import path from "node:path";
import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { serverUrl } from "./helpers";
import { SCREENSHOT_DIR } from "./env";

// Every kind of page at 1280×800 and 390×844, light and dark, in English and in Chinese: the first screen of each kept as
// test-results/screenshots/screens/<lang>-<kind>-<width>-<scheme>.png for a person to look at (issue #42), and on each
// the facts a screenshot cannot be trusted to show: the answer's status, no sideways scrolling, the document's language.

test.describe.configure({ timeout: 180_000 });

// `zh: false`: no Chinese page of that kind yet. The locale tree (one page tree under app/[lang]/, issue #42) gives every
// kind its /zh twin; then the flags go.
const KINDS: { kind: string; path: string; status?: number; zh?: false }[] = [
  { kind: "index", path: "/", zh: false },
  { kind: "index-observations", path: "/?observations=any", zh: false },
  { kind: "server", path: serverUrl(SEED.allStates), zh: false },
  { kind: "server-gated", path: serverUrl(SEED.gated), zh: false },
  { kind: "server-observations", path: serverUrl(SEED.poisoned), zh: false },
  { kind: "changes", path: "/changes", zh: false },
  { kind: "incidents", path: "/incidents", zh: false },
  { kind: "coverage", path: "/coverage", zh: false },
  { kind: "census", path: "/census" },
  { kind: "data", path: "/data", zh: false },
  { kind: "faq-index", path: "/faq" },
  { kind: "faq", path: "/faq/handshake" },
  { kind: "run", path: "/runs/2", zh: false },
  { kind: "not-found", path: "/servers/io.github.nobody/nothing", status: 404, zh: false },
];

const at = (lang: "en" | "zh", p: string) => (lang === "en" ? p : p === "/" ? "/zh" : p.startsWith("/?") ? `/zh${p.slice(1)}` : `/zh${p}`);

for (const lang of ["en", "zh"] as const) {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    test(`every page kind in ${lang} at ${width}×${height}, light and dark`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const k of KINDS.filter((k) => lang === "en" || k.zh !== false)) {
          const url = at(lang, k.path);
          let res = await page.goto(url);
          // The front sheds load with a 503 and Retry-After on a loaded machine; the page's own answer comes after.
          for (let i = 0; res?.status() === 503 && i < 5; i++) {
            await page.waitForTimeout(1_000);
            res = await page.goto(url);
          }
          expect(res?.status(), url).toBe(k.status ?? 200);
          expect(await page.evaluate(() => document.documentElement.lang), url).toBe(lang === "en" ? "en" : "zh-Hans");
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `${url}: no sideways scrolling`).toBeLessThanOrEqual(
            width,
          );
          await page.screenshot({ path: path.join(SCREENSHOT_DIR, "screens", `${lang}-${k.kind}-${width}-${scheme}.png`) });
        }
      }
    });
  }
}
