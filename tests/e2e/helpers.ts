import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { SCREENSHOT_DIR } from "./env";

export const serverUrl = (name: string) => `/servers/${name.split("/").map(encodeURIComponent).join("/")}`;
export const badgeUrl = (name: string, check?: string) =>
  `/badge/${name.split("/").map(encodeURIComponent).join("/")}${check ? `?check=${check}` : ""}`;

/** Fails on any axe violation, listing rule ids and the first offending node of each. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes[0]?.target.join(" ")} ${v.nodes[0]?.failureSummary ?? ""}`,
  );
  expect(summary, "axe violations").toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Collects console errors (CSP violations show up here) while a page is used. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  return errors;
}

/** Parses Atom in the browser's own XML parser: the parse error (if any), the root and each entry's fields. */
export async function parseAtom(page: Page, xml: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "application/xml");
    const err = doc.getElementsByTagName("parsererror")[0];
    const entries = [...doc.getElementsByTagName("entry")].map((e) => ({
      title: e.getElementsByTagName("title")[0]?.textContent ?? "",
      updated: e.getElementsByTagName("updated")[0]?.textContent ?? "",
      link: e.getElementsByTagName("link")[0]?.getAttribute("href") ?? "",
      summary: (e.getElementsByTagName("summary")[0] ?? e.getElementsByTagName("content")[0])?.textContent ?? "",
    }));
    return { error: err?.textContent ?? null, root: doc.documentElement.localName, ns: doc.documentElement.namespaceURI, entries };
  }, xml);
}
