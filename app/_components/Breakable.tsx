import { Fragment } from "react";

/** Text with a break opportunity after each of `after`'s characters ("/" and "." in a registry name, "_" in a code), so
 * a narrow cell wraps it between its parts instead of inside a word ("delet e_fil e"). */
export function Breakable({ text, after }: { text: string; after: string }) {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (after.includes(text[i]!) && i < text.length - 1) {
      parts.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {p}
        </Fragment>
      ))}
    </>
  );
}
