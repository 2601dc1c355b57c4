import { NextResponse, type NextRequest } from "next/server";
import { CENSUS_WINDOWS, parseCensusWindow } from "./lib/site/census";

// Runs before /census and /zh/census render: a ?window= value that is not allowed is a 400 naming the allowed values
// (a page cannot set its own status). Everything else goes on untouched.

export function proxy(request: NextRequest) {
  const w = parseCensusWindow(request.nextUrl.searchParams.get("window"));
  if (typeof w === "string") return NextResponse.next();
  const base = request.nextUrl.pathname;
  const links = CENSUS_WINDOWS.map((v) => `<li><a href="${base}${v === "90d" ? "" : `?window=${v}`}">${v}</a></li>`).join("");
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad window · mcp-status</title></head><body><h1>Bad window</h1><p>${escapeHtml(w.error)}</p><ul>${links}</ul></body></html>`;
  return new NextResponse(body, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const config = { matcher: ["/census", "/zh/census"] };
