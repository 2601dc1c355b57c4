import type { Lang } from "@/lib/site/labels";
import { CopyButton } from "./CopyButton";

export function CopyField({ label, text, className, lang = "en" }: { label: string; text: string; className?: string; lang?: Lang }) {
  return (
    <div className={`copy-field ${className ?? ""}`}>
      <div className="copy-head">
        <span className="copy-label">{label}</span>
        <CopyButton text={text} label={label} lang={lang} />
      </div>
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
