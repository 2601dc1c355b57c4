"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { HTML_LANG, langOfPath, localePath, otherLanguagePath, SITE_CHROME } from "@/lib/site/chrome";

// The document around every page. A client component so that it knows, during the server render too, the
// path it wraps (the 404 page has no locale segment): pages under /zh/ get <html lang="zh-Hans"> and Chinese navigation,
// while the pages themselves stay static or cached as before (no request headers are read).
export function SiteShell({ suiteVersion, children }: { suiteVersion: string; children: ReactNode }) {
  const pathname = usePathname() ?? "/";
  const lang = langOfPath(pathname);
  const c = SITE_CHROME[lang];
  const other = lang === "en" ? "zh" : "en";
  return (
    <html lang={HTML_LANG[lang]}>
      <body>
        <a className="skip-link" href="#main">
          {c.skip}
        </a>
        <header className="site-header">
          <div className="wrap header-inner">
            <Link href={localePath(lang, "/")} className="brand">
              mcp-status
            </Link>
            <nav aria-label={c.navLabel}>
              <ul className="nav-list">
                {c.nav.map((l) => (
                  <li key={l.href}>
                    <Link href={l.href} hrefLang={l.hrefLang}>
                      {l.label}
                    </Link>
                  </li>
                ))}
                <li>
                  <Link href={otherLanguagePath(pathname)} hrefLang={HTML_LANG[other]}>
                    <span lang={HTML_LANG[other]}>{c.otherLanguage}</span>
                    <span className="visually-hidden"> ({c.otherLanguageHint})</span>
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
              {c.suite(suiteVersion)}
              {c.footerLinks.map((l) => (
                <span key={l.href}>
                  {" · "}
                  <Link href={l.href}>{l.label}</Link>
                </span>
              ))}
            </p>
            <p>{c.disclaimer}</p>
          </div>
        </footer>
      </body>
    </html>
  );
}
