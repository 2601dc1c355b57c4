import { ImageResponse } from "next/og";
import type { CheckState } from "@/lib/vocabulary/checks";
import { BADGE_COLORS } from "@/lib/site/badge";
import { CARD_SIZE, type CardModel } from "@/lib/site/card";

// The card drawn with next/og (satori): words carry every fact, each state also has its own shape, so the card
// reads in greyscale too. Icons are drawn as SVG because the bundled font has no such glyphs.

const INK = "#1a1a1a";
const MUTED = "#555555";

function Icon({ state, size }: { state: CheckState | null; size: number }) {
  const color = state ? BADGE_COLORS[state] : BADGE_COLORS.unknown;
  const stroke = { stroke: "#ffffff", strokeWidth: 3.2, strokeLinecap: "round" as const, strokeLinejoin: "round" as const, fill: "none" };
  return (
    <svg width={size} height={size} viewBox="0 0 24 24">
      {state === "observed_risk" ? <path d="M12 2 L23 21 H1 Z" fill={color} /> : <circle cx="12" cy="12" r="11" fill={color} />}
      {state === "verified" ? <path d="M6.5 12.5 L10.5 16.5 L17.5 8.5" {...stroke} /> : null}
      {state === "failed" ? <path d="M8 8 L16 16 M16 8 L8 16" {...stroke} /> : null}
      {state === "observed_risk" ? <path d="M12 9 V14 M12 17.5 V17.6" {...stroke} /> : null}
      {state === "not_checked" || state === null ? <circle cx="12" cy="12" r="5" fill="#ffffff" /> : null}
    </svg>
  );
}

function nameSize(name: string): number {
  if (name.length <= 28) return 64;
  if (name.length <= 44) return 50;
  return 40;
}

export async function renderCard(m: CardModel): Promise<Buffer> {
  const overallColor = m.overall ? BADGE_COLORS[m.overall] : BADGE_COLORS.unknown;
  const image = new ImageResponse(
    <div
      style={{
        display: "flex",
        flexDirection: "column",
        width: "100%",
        height: "100%",
        background: "#ffffff",
        padding: "56px 64px",
        color: INK,
        fontFamily: "sans-serif",
      }}
    >
      <div style={{ display: "flex", fontSize: 28, color: MUTED }}>mcp-status · observed MCP checks</div>
      <div style={{ display: "flex", flexDirection: "column", marginTop: 28 }}>
        <div style={{ display: "flex", fontSize: nameSize(m.name), fontWeight: 700, lineHeight: 1.1, wordBreak: "break-all" }}>
          {m.name}
        </div>
        {m.title ? <div style={{ display: "flex", fontSize: 30, color: MUTED, marginTop: 10 }}>{m.title.slice(0, 80)}</div> : null}
      </div>
      <div style={{ display: "flex", alignItems: "center", marginTop: 34 }}>
        <Icon state={m.overall} size={64} />
        <div style={{ display: "flex", fontSize: 54, fontWeight: 700, marginLeft: 20, color: overallColor }}>{m.overallLabel}</div>
        {m.leftRegistry ? <div style={{ display: "flex", fontSize: 28, color: MUTED, marginLeft: 24 }}>(left the registry)</div> : null}
      </div>
      <div style={{ display: "flex", flexWrap: "wrap", marginTop: 34 }}>
        {m.checks.map((c) => (
          <div key={c.id} style={{ display: "flex", alignItems: "center", width: "33%", marginBottom: 18 }}>
            <Icon state={c.state} size={30} />
            <div style={{ display: "flex", flexDirection: "column", marginLeft: 12 }}>
              <div style={{ display: "flex", fontSize: 24, color: MUTED }}>{c.label}</div>
              <div style={{ display: "flex", fontSize: 28, fontWeight: 700 }}>{c.stateLabel}</div>
            </div>
          </div>
        ))}
      </div>
      <div style={{ display: "flex", marginTop: "auto", fontSize: 26, color: MUTED }}>{m.probed}</div>
    </div>,
    { ...CARD_SIZE },
  );
  return Buffer.from(await image.arrayBuffer());
}
