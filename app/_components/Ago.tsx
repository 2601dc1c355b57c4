"use client";

import { useEffect, useState } from "react";
import { formatRelative, formatUtc } from "@/lib/site/format";

/** A time shown as UTC in the cached HTML and as "3 h ago" once the browser runs, so cached pages never
 * carry a relative time that was true only when they were rendered. */
export function Ago({ iso, withUtc = false }: { iso: string; withUtc?: boolean }) {
  const [relative, setRelative] = useState<string | null>(null);
  useEffect(() => setRelative(formatRelative(iso, new Date())), [iso]);
  const utc = formatUtc(iso);
  return (
    <time dateTime={iso} title={utc}>
      {relative === null ? utc : withUtc ? `${utc} (${relative})` : relative}
    </time>
  );
}
