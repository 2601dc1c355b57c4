import Link from "next/link";
import type { ClientsVerdict } from "@/lib/checks/clients";
import { CLIENT_STATE_LABELS, clientLine } from "@/lib/site/clients";
import type { Lang } from "@/lib/site/labels";
import { CLIENT_KINDS } from "@/lib/vocabulary/clients";
import { Inline } from "../Inline";

const HEADING: Record<Lang, string> = { en: "Which clients can connect", zh: "哪些客户端能连上" };
const ABOUT: Record<Lang, { text: string; href: string }> = {
  en: { text: "How clients start", href: "/faq/clients" },
  zh: { text: "客户端如何开始连接", href: "/zh/faq/clients" },
};

/** architecture.md §2.10: one plain line per kind of client, at the top of the server page; a fact beside the checks. */
export function ClientLines({ clients, lang = "en" }: { clients: ClientsVerdict; lang?: Lang }) {
  return (
    <section className="client-lines" aria-labelledby="clients-h" id="clients">
      <h3 id="clients-h" className="visually-hidden">
        {HEADING[lang]}
      </h3>
      <ul>
        {CLIENT_KINDS.map((kind) => {
          const v = clients[kind];
          return (
            <li key={kind} className={`client-line client-${v.state}`} data-kind={kind} data-state={v.state}>
              <span className="client-state">{CLIENT_STATE_LABELS[v.state]![lang]}</span> <Inline text={clientLine(kind, v, lang)} />
            </li>
          );
        })}
      </ul>
      <p className="sub client-about">
        <Link href={ABOUT[lang].href}>{ABOUT[lang].text}</Link>
      </p>
    </section>
  );
}
