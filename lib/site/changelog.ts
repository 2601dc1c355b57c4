// The dated rule changes of the check suite, in both languages; the changelog page and FAQ notes read this.
/** Rule changes, newest first; the site's changelog and FAQ notes read this. `version` is null for
 * changes that shipped without a version bump of their own. */
export const SUITE_CHANGELOG: readonly { version: string | null; date: string; en: string; zh: string }[] = [
  {
    version: "0.11.0",
    date: "2026-10-06",
    en: "A metadata URL on another host that asked not to be probed is not fetched; auth_metadata is Not checked with that reason.",
    zh: "质询指向的元数据 URL 若位于已要求停止探测的其他主机上，不再抓取；auth_metadata 记为未检查并写明原因。",
  },
  {
    version: "0.10.0",
    date: "2026-10-01",
    en: "A 2xx answer to server/discover that is neither a discover result nor -32020/-32021/-32022 now falls back to initialize.",
    zh: "server/discover 得到既不是发现结果、也不是 -32020/-32021/-32022 的 2xx 响应时，改为回退到 initialize。",
  },
  {
    version: null,
    date: "2026-09-26",
    en: "The reserved-tool call is also withheld when the handshake or tool list is stopped by a credential gate; auth_metadata then reads the gate's own challenge.",
    zh: "握手或工具列表被凭据门控挡住时，同样扣下保留工具调用；auth_metadata 改读门控本身的质询。",
  },
  {
    version: null,
    date: "2026-09-23",
    en: "The reserved-tool call is withheld when the tool list could not be read, pages remain unread, or the list contains the reserved name.",
    zh: "读不到工具列表、列表还有未读页，或列表含保留名时，扣下保留工具调用。",
  },
];
