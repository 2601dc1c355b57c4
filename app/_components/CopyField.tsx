import { CopyButton } from "./CopyButton";

export function CopyField({ label, text, className }: { label: string; text: string; className?: string }) {
  return (
    <div className={`copy-field ${className ?? ""}`}>
      <div className="copy-head">
        <span className="copy-label">{label}</span>
        <CopyButton text={text} label={label} />
      </div>
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
