import { getConfig } from "@/lib/config";
import { formatUtc } from "@/lib/site/format";
import { FORM_KEY_META, issueFormToken, newFormKey, parseReprobeFlash, type ReprobeFlash } from "@/lib/site/reprobe-form";
import { runPath } from "@/lib/site/paths";
import { serverIdByName } from "@/lib/store/history";
import { metaOnce, reprobeStatus, type ReprobeStatus } from "@/lib/store/reprobe";
import { siteDb } from "../_lib/db";

function refusal(flash: ReprobeFlash, minMinutes: number, hourlyCap: number): string {
  const after = flash.retryAt ? ` Try again after ${formatUtc(flash.retryAt)}.` : "";
  switch (flash.outcome) {
    case "server_recent":
      return `Not queued: this server may be probed on request at most once every ${minMinutes} minutes.${after}`;
    case "global_cap":
      return `Not queued: the site takes at most ${hourlyCap} requests an hour across all servers, and that many came in the last hour.${after}`;
    case "left_registry":
      return "Not queued: this server left the registry and is no longer probed.";
    case "form_expired":
      return "Not queued: the form was too old or not from this page. Reload the page and try again.";
  }
}

/** "Probe again now": a plain form (no JavaScript) posting to /api/reprobe, then the request's state. */
export function ReprobeForm(props: {
  name: string;
  token: string;
  status: ReprobeStatus | null;
  flash: ReprobeFlash | null;
  minMinutes: number;
  hourlyCap: number;
  leftRegistry: boolean;
  optedOut: boolean;
}) {
  const { status, flash } = props;
  const refused = flash ? refusal(flash, props.minMinutes, props.hourlyCap) : null;
  return (
    <section id="reprobe" aria-labelledby="reprobe-h">
      <h2 id="reprobe-h">Probe again</h2>
      {props.leftRegistry ? (
        <p>This server left the registry, so it cannot be probed on request.</p>
      ) : props.hourlyCap === 0 ? (
        <p>Probes on request are turned off on this site.</p>
      ) : (
        <>
          {props.optedOut ? (
            <p>This host asked not to be probed: a request here is answered from the opt-out, and nothing is sent to it.</p>
          ) : null}
          <p>
            Fixed something? Ask for one probe of this server now instead of waiting for its schedule. The probe is the same as in a round,
            with the same opt-outs: a host that asked not to be probed gets no request. At most once every {props.minMinutes} minutes per
            server, and {props.hourlyCap} an hour for the whole site.
          </p>
          <form method="post" action="/api/reprobe" className="reprobe-form">
            <input type="hidden" name="server" value={props.name} />
            <input type="hidden" name="token" value={props.token} />
            <button type="submit">Probe again now</button>
          </form>
        </>
      )}
      <div role="status" className="reprobe-status">
        {refused ? <p className="notice warn">{refused}</p> : null}
        {status ? (
          status.probe ? (
            <p>
              Requested at <time dateTime={status.requestedAt}>{formatUtc(status.requestedAt)}</time>;{" "}
              <strong>
                probed at <time dateTime={status.probe.finishedAt}>{formatUtc(status.probe.finishedAt)}</time>
              </strong>
              {status.probe.requests === 0 ? " without a request (nothing was sent; the results say why)" : ""} (
              <a href={runPath(status.probe.runId)}>run {status.probe.runId}</a>). The results on this page are from that probe or a later
              one.
            </p>
          ) : (
            <p>
              Requested at <time dateTime={status.requestedAt}>{formatUtc(status.requestedAt)}</time>: <strong>queued</strong>. It runs at
              once unless a round is under way, then with the next round; reload this page to see the result.
            </p>
          )
        ) : null}
      </div>
    </section>
  );
}

/** The form with its token and the server's latest request, read at render time. */
export function ReprobeSection({
  name,
  leftRegistry,
  optedOut,
  query,
}: {
  name: string;
  leftRegistry: boolean;
  optedOut: boolean;
  query: Record<string, string | string[] | undefined>;
}) {
  const db = siteDb();
  const config = getConfig();
  const id = serverIdByName(db, name);
  return (
    <ReprobeForm
      name={name}
      token={issueFormToken(metaOnce(db, FORM_KEY_META, newFormKey), name, new Date())}
      status={id === null ? null : reprobeStatus(db, id, { minMinutes: config.reprobeMinMinutes })}
      flash={parseReprobeFlash(query)}
      minMinutes={config.reprobeMinMinutes}
      hourlyCap={config.reprobeHourlyCap}
      leftRegistry={leftRegistry}
      optedOut={optedOut}
    />
  );
}
