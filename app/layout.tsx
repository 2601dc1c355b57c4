import type { ReactNode } from "react";

export const metadata = { title: "mcp-status", description: "Observed status of remote MCP servers" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
