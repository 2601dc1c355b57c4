"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { localePath } from "@/lib/site/chrome";
import { faqPath } from "@/lib/site/paths";
import { NOT_FOUND_WORDS, notFoundOf } from "@/lib/site/not-found";

// Every 404 page: worded for the section and language of the missing path. A client component only to read
// that path (a not-found file gets no params); it renders on the server like the rest of the page.
export function NotFoundView() {
  const { lang, section } = notFoundOf(usePathname() ?? "/");
  const w = NOT_FOUND_WORDS[lang][section];
  const href = { index: localePath(lang, "/"), faq: faqPath(lang) };
  return (
    <>
      <h1>{w.title}</h1>
      <p className="lede">{w.lede}</p>
      {w.detail ? <p>{w.detail}</p> : null}
      <form method="get" action={localePath(lang, "/")} className="filters" role="search" aria-label={w.search}>
        <div className="field">
          <label htmlFor="nf-q">{w.search}</label>
          <input id="nf-q" name="q" type="search" />
        </div>
        <button type="submit">{w.searchButton}</button>
      </form>
      <ul>
        {w.links.map((l) => (
          <li key={l.key}>
            <Link href={href[l.key]}>{l.label}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}
