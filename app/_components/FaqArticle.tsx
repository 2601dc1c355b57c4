import Link from "next/link";
import { SUITE_CHANGELOG } from "@/lib/site/changelog";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import { type Lang } from "@/lib/site/labels";
import { FAQ, FAQ_CHROME, FAQ_SLUGS, RULE_INDEX, changesSince, ruleHref, rowCells, rowId, type Block, type FaqSlug } from "@/lib/site/faq";
import { faqPath } from "@/lib/site/paths";
import { HTML_LANG } from "@/lib/site/chrome";
import { CopyField } from "./CopyField";
import { Inline } from "./Inline";
import { StackTable } from "./StackTable";

/** The other language's name, shown in that language, plus a hidden phrase in the reader's language. */
function LangSwitch({ lang, href }: { lang: Lang; href: string }) {
  const other: Lang = lang === "en" ? "zh" : "en";
  return (
    <Link href={href} hrefLang={HTML_LANG[other]}>
      <span lang={HTML_LANG[other]}>{FAQ_CHROME[lang].otherLanguage}</span>
      <span className="visually-hidden">: {FAQ_CHROME[lang].otherLanguageLabel}</span>
    </Link>
  );
}

function Changelog({ lang, entries }: { lang: Lang; entries: typeof SUITE_CHANGELOG }) {
  const chrome = FAQ_CHROME[lang];
  return (
    <ul>
      {entries.map((c) => (
        <li key={`${c.date}-${c.version}`}>
          <time dateTime={c.date}>{c.date}</time> · {c.version ? chrome.suite(c.version) : chrome.unversioned}: {c[lang]}
        </li>
      ))}
    </ul>
  );
}

function BlockView({ block, lang }: { block: Block; lang: Lang }) {
  if ("h2" in block)
    return (
      <h2 id={block.id}>
        <Inline text={block.h2} />
      </h2>
    );
  if ("h3" in block)
    return (
      <h3 id={block.id}>
        <Inline text={block.h3} />
      </h3>
    );
  if ("p" in block)
    return (
      <p>
        <Inline text={block.p} />
      </p>
    );
  if ("ul" in block)
    return (
      <ul>
        {block.ul.map((t, i) => (
          <li key={i}>
            <Inline text={t} />
          </li>
        ))}
      </ul>
    );
  if ("ol" in block)
    return (
      <ol>
        {block.ol.map((t, i) => (
          <li key={i}>
            <Inline text={t} />
          </li>
        ))}
      </ol>
    );
  if ("table" in block) {
    const { caption, head, rows } = block.table;
    return (
      <StackTable
        caption={<Inline text={caption} />}
        columns={head.map((h, c) => ({
          label: h,
          head: <Inline text={h} />,
          cell: (row: (typeof rows)[number]) => <Inline text={rowCells(row)[c] ?? ""} />,
        }))}
        rows={rows}
        rowKey={(_, r) => r}
        rowProps={(row) => ({ id: rowId(row) })}
      />
    );
  }
  if ("code" in block) return <CopyField label={block.label} text={block.code} lang={lang} />;
  if ("wire" in block)
    return (
      <figure className="wire">
        <figcaption>{block.label}</figcaption>
        <pre tabIndex={0}>
          <code>{block.wire}</code>
        </pre>
      </figure>
    );
  return (
    <>
      <p>{FAQ_CHROME[lang].currentSuite(SUITE_VERSION)}</p>
      <Changelog lang={lang} entries={SUITE_CHANGELOG} />
    </>
  );
}

export function FaqArticle({ lang, slug }: { lang: Lang; slug: FaqSlug }) {
  const page = FAQ[lang][slug];
  const chrome = FAQ_CHROME[lang];
  const other: Lang = lang === "en" ? "zh" : "en";
  const since = changesSince(page.firstPublished);
  return (
    <div lang={HTML_LANG[lang]} className="faq-body">
      <p className="lang-switch">
        <LangSwitch lang={lang} href={faqPath(other, slug)} />
      </p>
      <p className="sub">
        <Link href={faqPath(lang)}>{chrome.backToIndex}</Link>
      </p>
      <h1>{page.title}</h1>
      <p className="lede">{page.summary}</p>
      {page.body.map((b, i) => (
        <BlockView key={i} block={b} lang={lang} />
      ))}
      {/* The answer comes first; the page's own rule changes close it, folded (the whole log is /faq/changelog). */}
      {slug !== "changelog" ? (
        <aside className="rule-changes" aria-labelledby="rule-changes-h">
          <details>
            <summary>
              <h2 id="rule-changes-h">
                {since.length > 0 ? chrome.changesSince(page.firstPublished) : chrome.noChangesSince(page.firstPublished)}
              </h2>
            </summary>
            {since.length > 0 ? <Changelog lang={lang} entries={since} /> : null}
            <p className="sub">
              <Link href={faqPath(lang, "changelog")}>{FAQ[lang].changelog.title}</Link>
            </p>
          </details>
        </aside>
      ) : null}
    </div>
  );
}

export function FaqIndex({ lang }: { lang: Lang }) {
  const chrome = FAQ_CHROME[lang];
  const other: Lang = lang === "en" ? "zh" : "en";
  return (
    <div lang={HTML_LANG[lang]}>
      <p className="lang-switch">
        <LangSwitch lang={lang} href={faqPath(other)} />
      </p>
      <h1>{chrome.indexTitle}</h1>
      <p className="lede">{chrome.indexLede}</p>
      <h2 id="pages">{chrome.pagesHeading}</h2>
      <ul className="faq-list">
        {FAQ_SLUGS.map((slug) => (
          <li key={slug}>
            <Link href={faqPath(lang, slug)}>{FAQ[lang][slug].title}</Link>
            <div className="sub">{FAQ[lang][slug].summary}</div>
          </li>
        ))}
      </ul>
      <section aria-labelledby="rules" className="rule-index">
        <h2 id="rules">{chrome.rulesHeading}</h2>
        <p className="sub">{chrome.rulesLede}</p>
        {RULE_INDEX.map((group) => (
          <section key={group.id} aria-labelledby={`rules-${group.id}`}>
            <h3 id={`rules-${group.id}`}>{group.title[lang]}</h3>
            <ul>
              {group.rules.map((rule) => (
                <li key={rule.id} data-rule={rule.id}>
                  <Link href={ruleHref(lang, rule)}>{rule.text[lang]}</Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </section>
    </div>
  );
}
