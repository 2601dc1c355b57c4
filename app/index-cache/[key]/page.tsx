import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { parseVersionSegment } from "@/lib/site/cache-key";
import { parseIndexQuery } from "@/lib/site/query";
import { IndexView } from "../../_components/IndexView";
import { indexMetadata } from "../../_lib/meta";

// "/" rendered once per site data version (proxy.ts rewrites it here with the version and the query).
export const dynamic = "force-static";
export const dynamicParams = true;
export function generateStaticParams(): { key: string }[] {
  return [];
}

export async function generateMetadata({ params }: { params: Promise<{ key: string }> }): Promise<Metadata> {
  const version = parseVersionSegment((await params).key);
  return version ? indexMetadata(version.extra ? `/?${version.extra}` : "/", version.origin) : {};
}

export default async function CachedIndex({ params }: { params: Promise<{ key: string }> }) {
  const version = parseVersionSegment((await params).key);
  if (!version) notFound();
  return <IndexView query={parseIndexQuery(Object.fromEntries(new URLSearchParams(version.extra)))} />;
}
