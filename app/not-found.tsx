import Link from "next/link";

export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p className="lede">There is no page here. If you followed a link to a server, we know no server by that registry name.</p>
      <p>
        Registry names look like <code>io.github.owner/server-name</code> and are case-sensitive. A server keeps its page after it leaves
        the registry, so a missing page usually means a typo or a name the registry never listed.
      </p>
      <form method="get" action="/" className="filters" role="search" aria-label="Search servers">
        <div className="field">
          <label htmlFor="nf-q">Search servers by name</label>
          <input id="nf-q" name="q" type="search" />
        </div>
        <button type="submit">Search</button>
      </form>
      <ul>
        <li>
          <Link href="/">All servers</Link>
        </li>
        <li>
          <Link href="/faq">Questions and answers</Link>
        </li>
      </ul>
    </>
  );
}
