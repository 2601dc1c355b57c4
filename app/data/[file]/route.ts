import { getConfig } from "@/lib/config";
import { serversFileResponse } from "../../_lib/data-file";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  return serversFileResponse(getConfig().openDataDir, (await params).file, request.headers);
}
