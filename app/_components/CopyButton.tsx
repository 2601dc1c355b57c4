"use client";

import { useState } from "react";
import type { Lang } from "@/lib/site/labels";

// The button's own words; kept here (not in lib/site/server-text) so the client bundle carries only these.
const WORDS: Record<Lang, { copy: string; copied: string; label: (what: string) => string }> = {
  en: { copy: "Copy", copied: "Copied", label: (what) => `Copy ${what}` },
  zh: { copy: "复制", copied: "已复制", label: (what) => `复制${what}` },
};

/** Progressive enhancement only: the text it copies is always visible and selectable beside it. */
export function CopyButton({ text, label, lang = "en" }: { text: string; label: string; lang?: Lang }) {
  const [done, setDone] = useState(false);
  const w = WORDS[lang];
  return (
    <button
      type="button"
      className="copy-button"
      aria-label={w.label(label)}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1500);
        });
      }}
    >
      {done ? w.copied : w.copy}
    </button>
  );
}
