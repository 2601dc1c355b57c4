import type { Key, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/** One column of a {@link StackTable}: its header and how each row fills its cell. */
export type StackColumn<Row> = {
  /** The header's text, and each cell's label once the table stacks on a narrow screen. */
  label: string;
  /** What the header shows when it is more than `label` (a sort link, a shorter word); `label` stays the cells' label. */
  head?: ReactNode;
  /** Attributes of the header cell besides `scope` (a class, `aria-sort`). */
  headProps?: ThHTMLAttributes<HTMLTableCellElement>;
  /** A class on both the header and every cell of the column ("num" right-aligns figures). */
  className?: string;
  /** A cell that says nothing in words (a share bar): no label when stacked, and hidden from screen readers. */
  decorative?: boolean;
  /** The column names its row: each cell is a `<th scope="row">`, labelled like any other cell. */
  rowHeader?: boolean;
  cell: (row: Row, index: number) => ReactNode;
  /** Attributes of one row's cell (a class that depends on the row); its class is added to the column's. */
  cellProps?: (row: Row) => TdHTMLAttributes<HTMLTableCellElement>;
};

/** Attributes of one row (its anchor id, a class, a data attribute). */
type RowProps = { id?: string; className?: string } & { [data: `data-${string}`]: string | undefined };

/**
 * A table that turns into labelled stacks below 45rem (globals.css, `table.stack`), so a phone never scrolls
 * sideways. The header and the stacked label of a column come from one `label`, so they cannot drift apart.
 */
export function StackTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  className,
  id,
  caption,
  captionClassName,
  headClassName,
  colgroup,
}: {
  columns: readonly (StackColumn<Row> | null | false)[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => Key;
  rowProps?: (row: Row) => RowProps;
  className?: string;
  id?: string;
  caption?: ReactNode;
  /** A class on the caption ("visually-hidden" where the section's heading already says it). */
  captionClassName?: string;
  /** A class on the `<thead>` ("visually-hidden" where the cells speak for themselves on screen). */
  headClassName?: string;
  colgroup?: ReactNode;
}) {
  const cols = columns.filter((c): c is StackColumn<Row> => Boolean(c));
  return (
    <table className={className ? `stack ${className}` : "stack"} id={id}>
      {caption !== undefined ? <caption className={captionClassName}>{caption}</caption> : null}
      {colgroup}
      <thead className={headClassName}>
        <tr>
          {cols.map((c, i) => (
            <th scope="col" key={i} {...c.headProps} className={joinClass(c.className, c.headProps?.className)}>
              {c.head ?? c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, r) => (
          <tr key={rowKey(row, r)} {...rowProps?.(row)}>
            {cols.map((c, i) => {
              const { className: cellClass, ...extra } = c.cellProps?.(row) ?? {};
              const Cell = c.rowHeader ? "th" : "td";
              return (
                <Cell
                  key={i}
                  scope={c.rowHeader ? "row" : undefined}
                  data-label={c.decorative ? undefined : c.label}
                  className={joinClass(c.className, cellClass)}
                  aria-hidden={c.decorative ? true : undefined}
                  {...extra}
                >
                  {c.cell(row, r)}
                </Cell>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function joinClass(...names: (string | undefined)[]): string | undefined {
  const joined = names.filter(Boolean).join(" ");
  return joined || undefined;
}
