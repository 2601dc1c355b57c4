"use client";

import { useState } from "react";
import { usePathname } from "next/navigation";
import { langOfPath, SITE_CHROME } from "@/lib/site/chrome";

/** Progressive enhancement only: the text it copies is always visible and selectable beside it. Worded in the page's
 * language, read from its path as the site's shell does, so no caller has to pass it. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  const c = SITE_CHROME[langOfPath(usePathname() ?? "/")];
  return (
    <button
      type="button"
      className="copy-button"
      aria-label={c.copyName(label)}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1500);
        });
      }}
    >
      {done ? c.copied : c.copy}
    </button>
  );
}
