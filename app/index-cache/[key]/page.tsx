import { notFound } from "next/navigation";
import { parseVersionSegment } from "@/lib/site/cache-key";
import { parseIndexQuery } from "@/lib/site/query";
import { IndexView } from "../../_components/IndexView";

// "/" rendered once per site data version (proxy.ts rewrites it here with the version and the query).
export const dynamic = "force-static";
export const dynamicParams = true;
export function generateStaticParams(): { key: string }[] {
  return [];
}

export default async function CachedIndex({ params }: { params: Promise<{ key: string }> }) {
  const version = parseVersionSegment((await params).key);
  if (!version) notFound();
  return <IndexView query={parseIndexQuery(Object.fromEntries(new URLSearchParams(version.extra)))} />;
}
