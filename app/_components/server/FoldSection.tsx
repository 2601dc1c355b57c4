import type { ReactNode } from "react";

/** A long section of the server page that folds: its heading is the summary, so the page's outline and the table of
 * contents stay, and a link to anything inside opens it (browsers reveal a fragment's closed details). */
export function FoldSection({
  id,
  headingId,
  title,
  note,
  open = false,
  children,
}: {
  id?: string;
  headingId: string;
  title: ReactNode;
  note?: ReactNode;
  open?: boolean;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={headingId} className="fold">
      <details open={open}>
        <summary>
          <h2 id={headingId}>{title}</h2>
          {note ? <span className="sub fold-note">{note}</span> : null}
        </summary>
        {/* A link to `#<id>-content` lands inside, which opens it; the section's own id stays for links that only scroll. */}
        <div id={id ? `${id}-content` : undefined}>{children}</div>
      </details>
    </section>
  );
}
