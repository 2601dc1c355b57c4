import type { ReactNode } from "react";
import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "mcp-status: observed status of remote MCP servers", template: "%s · mcp-status" },
  description: "What an anonymous, careful client sees when it talks to every remote MCP server in the official registry.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <div className="wrap header-inner">
            <Link href="/" className="brand">
              mcp-status
            </Link>
            <nav aria-label="Site">
              <ul className="nav-list">
                <li>
                  <Link href="/">Servers</Link>
                </li>
                <li>
                  <Link href="/changes">Changes</Link>
                </li>
                <li>
                  <Link href="/coverage">Coverage</Link>
                </li>
                <li>
                  <Link href="/census">Census</Link>
                </li>
                <li>
                  <Link href="/faq">FAQ</Link>
                </li>
                <li>
                  <Link href="/zh/faq" hrefLang="zh-Hans" lang="zh-Hans">
                    中文
                  </Link>
                </li>
              </ul>
            </nav>
          </div>
        </header>
        <main id="main" className="wrap">
          {children}
        </main>
        <footer className="site-footer">
          <div className="wrap">
            <p>
              Check suite {SUITE_VERSION} · <Link href="/faq/changelog">rule changes</Link> ·{" "}
              <Link href="/faq/observed-unsigned">what a verdict here means</Link> ·{" "}
              <Link href="/faq/opting-out">opt out of probing</Link>
            </p>
            <p>Observations of what an anonymous client sees, with the evidence. Not a certification and not a security audit.</p>
          </div>
        </footer>
      </body>
    </html>
  );
}
