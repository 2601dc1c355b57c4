import type { ReactNode } from "react";
import type { Metadata, Viewport } from "next";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import { SiteShell } from "./_components/SiteShell";
import { SITE_DESCRIPTION, SITE_NAME } from "./_lib/meta";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: `${SITE_NAME}: observed status of remote MCP servers`, template: `%s · ${SITE_NAME}` },
  description: SITE_DESCRIPTION,
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
      { url: "/favicon.svg", type: "image/svg+xml" },
    ],
  },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return <SiteShell suiteVersion={SUITE_VERSION}>{children}</SiteShell>;
}
