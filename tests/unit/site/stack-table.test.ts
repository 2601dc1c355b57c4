import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { StackTable, type StackColumn } from "@/app/_components/StackTable";

type Row = { name: string; n: number };
const rows: Row[] = [
  { name: "a", n: 1 },
  { name: "b", n: 0 },
];
const columns: (StackColumn<Row> | false)[] = [
  { label: "Server", cell: (r) => r.name },
  false,
  { label: "Count", className: "num", cellProps: (r) => ({ className: r.n ? "some" : "none" }), cell: (r) => r.n },
  { label: "Share bar", head: createElement("span", { className: "visually-hidden" }, "Share bar"), decorative: true, cell: () => "▮" },
];

describe("StackTable", () => {
  test("each cell's stacked label is its column's header; a decorative cell has none and is hidden", () => {
    const html = renderToStaticMarkup(createElement(StackTable<Row>, { columns, rows, rowKey: (r) => r.name, className: "x" }));
    expect(html.startsWith('<table class="stack x">')).toBe(true);
    expect(html).toContain('<th scope="col">Server</th><th scope="col" class="num">Count</th>');
    expect(html).toContain('<td data-label="Server">a</td><td data-label="Count" class="num some">1</td><td aria-hidden="true">▮</td>');
    expect(html).toContain('<td data-label="Count" class="num none">0</td>');
    expect(html.match(/<tr>/g)?.length).toBe(3);
  });

  test("row attributes reach the row", () => {
    const html = renderToStaticMarkup(
      createElement(StackTable<Row>, {
        columns,
        rows,
        rowKey: (r) => r.name,
        rowProps: (r) => ({ id: `row-${r.name}`, "data-n": String(r.n) }),
      }),
    );
    expect(html).toContain('<tr id="row-a" data-n="1">');
    expect(html.startsWith('<table class="stack">')).toBe(true);
  });

  test("a row-header column renders <th scope=row> with its label; caption and head take a class", () => {
    const html = renderToStaticMarkup(
      createElement(StackTable<Row>, {
        columns: [{ label: "Server", rowHeader: true, cell: (r) => r.name }, columns[2]!],
        rows,
        rowKey: (r) => r.name,
        caption: "Counts",
        captionClassName: "visually-hidden",
        headClassName: "visually-hidden",
      }),
    );
    expect(html).toContain('<caption class="visually-hidden">Counts</caption><thead class="visually-hidden">');
    expect(html).toContain('<tr><th scope="row" data-label="Server">a</th><td data-label="Count" class="num some">1</td></tr>');
  });
});
