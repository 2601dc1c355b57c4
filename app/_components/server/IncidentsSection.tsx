import Link from "next/link";
import { formatCount } from "@/lib/site/format";
import { faqPath, incidentsFeedPath, incidentsPath } from "@/lib/site/paths";
import { incidentList } from "@/lib/store/incidents";
import { siteDb } from "../../_lib/db";
import { IncidentTable } from "../IncidentTable";
import { FoldSection } from "./FoldSection";

const SHOWN = 20;

/** A server's incidents (architecture.md §4), most recent first, with duration and the reason that opened each. */
export function IncidentsSection({
  name,
}: {
  name: string;
  /** Unused (kept until the page stops passing it). */ overallReason?: string | null;
}) {
  const { total, ongoing, rows } = incidentList(siteDb(), { server: name, limit: SHOWN });
  return (
    <FoldSection id="incidents" headingId="incidents-h" title="Incidents">
      <p>
        An incident opens when a discovery check (handshake, protocol version, tool list) turns Failed and closes at the first later probe
        that reaches the server with none of them Failed. <Link href={faqPath("en", "incidents")}>How incidents are recorded</Link>.
      </p>
      {total === 0 ? (
        <p>No incident recorded for this server.</p>
      ) : (
        <>
          <p>
            {formatCount(total)} {total === 1 ? "incident" : "incidents"}
            {ongoing ? `, ${ongoing} ongoing` : ""}
            {total > SHOWN ? `; the latest ${SHOWN} below, all on ` : ". "}
            {total > SHOWN ? <Link href={incidentsPath(name)}>the incidents page</Link> : null}
            {total > SHOWN ? "." : null}
          </p>
          <IncidentTable rows={rows} showServer={false} />
        </>
      )}
      <p>
        <a href={incidentsFeedPath(name)}>Subscribe to this server&apos;s incidents (Atom feed)</a>: one entry when one opens and one when
        it closes.
      </p>
    </FoldSection>
  );
}
