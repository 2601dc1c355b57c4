// The answers every feed route and the card image share: the Atom response, and the 404 for a
// ?server= (or path) naming no server.

/** An Atom feed, kept by browsers and proxies for `maxAgeS` seconds. */
export function atomResponse(xml: string, maxAgeS = 300): Response {
  return new Response(xml, {
    headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": `public, max-age=${maxAgeS}` },
  });
}

/** The plain-text 404 for a registry name the database does not know. */
export function unknownServerResponse(): Response {
  return new Response("no server by that registry name\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}
