import { afterEach, describe, expect, test } from "vitest";
import { sitemapSource } from "@/app/_lib/sitemap";
import { SITE_PATHS, sitemapAnswer, sitemapFileAnswer } from "@/lib/site/sitemap";
import { serverPath } from "@/lib/site/paths";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { tempDb } from "../store/helpers";
import { listedServer } from "../store/listed";

// The sitemap over a real database: every server once, whether in one file or split behind an index.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function fleet(n: number) {
  const t = tempDb();
  cleanups.push(t.cleanup);
  const listed = Array.from({ length: n }, (_, i) =>
    listedServer(i === 0 ? "io.github.x/a&b<c>" : `io.github.site/server-${i}`, `https://s${i}.example/mcp`),
  );
  applyRegistrySnapshot(t.db, listed, "2026-11-01T00:00:00.000Z");
  return { db: t.db, names: listed.map((l) => l.name) };
}

const ORIGIN = "https://status.example";
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

describe("sitemap.xml", () => {
  test("one file lists the site's pages and every server page once", () => {
    const { db, names } = fleet(25);
    const a = sitemapAnswer(ORIGIN, sitemapSource(db));
    expect(a.body).toContain("<urlset");
    const urls = locs(a.body);
    expect(urls.slice(0, SITE_PATHS.length)).toEqual(SITE_PATHS.map((p) => ORIGIN + p));
    expect(urls.slice(SITE_PATHS.length).sort()).toEqual(names.map((n) => ORIGIN + serverPath(n)).sort());
    expect(a.body).not.toContain("<c>");
    expect(sitemapFileAnswer(ORIGIN, "0.xml", sitemapSource(db)).status).toBe(404);
  });

  test("past the per-file limit it becomes an index, and the files together list every URL once", () => {
    const { db, names } = fleet(57);
    const perFile = 10;
    const src = sitemapSource(db);
    const index = sitemapAnswer(ORIGIN, src, perFile);
    expect(index.body).toContain("<sitemapindex");
    const files = locs(index.body);
    const total = SITE_PATHS.length + names.length;
    expect(files).toHaveLength(Math.ceil(total / perFile));
    const all = files.flatMap((f) => {
      const file = sitemapFileAnswer(ORIGIN, f.slice(`${ORIGIN}/sitemaps/`.length), src, perFile);
      expect(file.status).toBe(200);
      const urls = locs(file.body);
      expect(urls.length).toBeLessThanOrEqual(perFile);
      return urls;
    });
    expect(all).toHaveLength(total);
    expect(new Set(all).size).toBe(total);
    for (const n of names) expect(all).toContain(ORIGIN + serverPath(n));
    expect(sitemapFileAnswer(ORIGIN, `${files.length}.xml`, src, perFile).status).toBe(404);
    expect(sitemapFileAnswer(ORIGIN, "01.xml", src, perFile).status).toBe(404);
  });
});
