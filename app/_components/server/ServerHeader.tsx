import Link from "next/link";
import { formatUtc } from "@/lib/site/format";
import type { ServerDetail } from "@/lib/store/servers/detail";
import { ReachNote } from "./ReachNote";

/** Breadcrumb, title, description, and the notices that change how the rest of the page reads. */
export function ServerHeader({ detail }: { detail: ServerDetail }) {
  return (
    <>
      <p className="sub">
        <Link href="/">All servers</Link> / registry name <code>{detail.name}</code>
      </p>
      <h1>{detail.title || detail.name}</h1>
      {detail.description ? <p className="lede">{detail.description}</p> : null}
      {detail.leftRegistryAt ? (
        <div className="notice warn" role="note">
          <p>
            <strong>This server left the registry</strong> on{" "}
            <time dateTime={detail.leftRegistryAt}>{formatUtc(detail.leftRegistryAt)}</time>. It is no longer probed; the page keeps its
            last results and history.
          </p>
        </div>
      ) : null}
      {detail.optOut ? (
        <div className="notice" role="note">
          <p>
            The host <code>{detail.host}</code> asked not to be probed ({detail.optOut.source === "robots" ? "robots.txt" : "operator list"}
            , since {formatUtc(detail.optOut.since)}): {detail.optOut.reason}. No request is sent to it.{" "}
            <Link href="/faq/opting-out">About opting out</Link>.
          </p>
        </div>
      ) : null}
      <ReachNote configuration={detail.configuration} needsConfig={detail.needsConfig} />
    </>
  );
}
