import { shownText, type ObservationFacts } from "./observations";

// architecture.md §2.9: an observation is stored as its code and facts; this one exhaustive switch words it, in English
// and in Chinese. Sentences say what is there and where, never what it means for the server.

export type ObservationLang = "en" | "zh";

/** What the JSON API, the CLI and /mcp give for one observation: the facts and the English sentence. */
export type Observation = ObservationFacts & { sentence: string };

/** The part of the pointer inside the tool ("/inputSchema/properties/q"), or the whole pointer for the instructions. */
export function pointerInTool(pointer: string): string {
  const m = /^\/tools\/\d+(\/.*)?$/.exec(pointer);
  return m ? (m[1] ?? "") : pointer;
}

function unescapePointer(p: string): string {
  return p.replace(/~1/g, "/").replace(/~0/g, "~");
}

const FIELDS: Record<ObservationLang, Record<string, string>> = {
  en: { "/name": "name", "/title": "title", "/description": "description", "/annotations/title": "annotation title" },
  zh: { "/name": "名称", "/title": "标题", "/description": "描述", "/annotations/title": "注解标题" },
};

/** "The description of `get_forecast`", "The server's instructions", "The key /inputSchema/properties/x of `t`". */
function place(f: ObservationFacts, lang: ObservationLang): string {
  const inner = pointerInTool(f.pointer);
  const tool = f.tool !== undefined ? `\`${shownText(f.tool, 80)}\`` : lang === "en" ? "a tool without a name" : "一个无名称的工具";
  const path = shownText(unescapePointer(inner), 120);
  if (f.pointer === "/instructions") return lang === "en" ? "The server's instructions field" : "服务端的 instructions 字段";
  const field = FIELDS[lang][inner];
  if (lang === "en") {
    if (f.inKey) return `The property name at ${path} in ${tool}`;
    return field ? `The ${field} of ${tool}` : `The string at ${path} in ${tool}`;
  }
  if (f.inKey) return `工具 ${tool} 中 ${path} 处的属性名`;
  return field ? `工具 ${tool} 的${field}` : `工具 ${tool} 中 ${path} 处的字符串`;
}

function list(cps: readonly string[] | undefined): string {
  return (cps ?? []).map((c) => (c === "U+001B" ? "U+001B ESC" : c)).join(", ");
}

function quoted(text: string | undefined, lang: ObservationLang): string {
  const t = shownText(text ?? "");
  return lang === "en" ? `'${t}'` : `“${t}”`;
}

const n = (x: number | undefined) => x ?? 0;
/** "1 control character", "3 control characters" (Chinese needs no plural). */
const counted = (x: number | undefined, word: string) => `${n(x)} ${word}${n(x) === 1 ? "" : "s"}`;

/** One sentence for one observation. */
export function observationSentence(f: ObservationFacts, lang: ObservationLang = "en"): string {
  const at = place(f, lang);
  const tool = f.tool !== undefined ? `\`${shownText(f.tool, 80)}\`` : lang === "en" ? "A tool without a name" : "一个无名称的工具";
  const off = n(f.offset);
  const en = lang === "en";
  switch (f.code) {
    case "hidden_tag_characters":
      return en
        ? `${at} contains ${counted(f.count, "Unicode tag character")} at offset ${off}${f.decoded ? `; they decode to ${quoted(f.decoded, lang)}` : ""}.`
        : `${at}在偏移 ${off} 处含有 ${n(f.count)} 个 Unicode 标签字符${f.decoded ? `，解码为${quoted(f.decoded, lang)}` : ""}。`;
    case "bidi_controls":
      return en
        ? `${at} contains ${counted(f.count, "bidirectional control character")} (${list(f.codePoints)}) from offset ${off}, which change the order in which the text is displayed.`
        : `${at}自偏移 ${off} 起含有 ${n(f.count)} 个双向控制字符（${list(f.codePoints)}），它们会改变文字的显示顺序。`;
    case "invisible_characters":
      return en
        ? `${at} contains ${counted(f.count, "invisible character")} (${list(f.codePoints)}) from offset ${off}.`
        : `${at}自偏移 ${off} 起含有 ${n(f.count)} 个不可见字符（${list(f.codePoints)}）。`;
    case "variation_selector_run":
      return en
        ? `${at} contains ${counted(f.count, "variation selector")} from offset ${off} outside a single emoji${f.decoded ? `; read as bytes they decode to ${quoted(f.decoded, lang)}` : ""}.`
        : `${at}自偏移 ${off} 起含有 ${n(f.count)} 个不属于单个表情符号的变体选择符${f.decoded ? `，按字节读取解码为${quoted(f.decoded, lang)}` : ""}。`;
    case "control_characters":
      return en
        ? `${at} contains ${counted(f.count, "control character")} (${list(f.codePoints)}) from offset ${off}.`
        : `${at}自偏移 ${off} 起含有 ${n(f.count)} 个控制字符（${list(f.codePoints)}）。`;
    case "conceals_from_user":
      return en
        ? `${at} says ${quoted(f.excerpt, lang)} at offset ${off}: words that ask the model to keep something from the user.`
        : `${at}在偏移 ${off} 处写有${quoted(f.excerpt, lang)}：这是要求模型对用户隐瞒某事的措辞。`;
    case "overrides_instructions":
      return en
        ? `${at} says ${quoted(f.excerpt, lang)} at offset ${off}: words that ask the model to set aside the instructions it already has.`
        : `${at}在偏移 ${off} 处写有${quoted(f.excerpt, lang)}：这是要求模型抛开已有指令的措辞。`;
    case "secret_file_handoff":
      return en
        ? `${at} names the secret file ${quoted(f.names?.[0], lang)} at offset ${off} and, in the same sentence, asks for contents to be passed on: ${quoted(f.excerpt, lang)}.`
        : `${at}在偏移 ${off} 处提到密钥文件${quoted(f.names?.[0], lang)}，并在同一句中要求把内容传出：${quoted(f.excerpt, lang)}。`;
    case "base64_text":
      return en
        ? `${at} holds ${counted(f.count, "base64 character")} at offset ${off} that decode to readable text: ${quoted(f.decoded, lang)}.`
        : `${at}在偏移 ${off} 处有 ${n(f.count)} 个 base64 字符，解码后是可读文字：${quoted(f.decoded, lang)}。`;
    case "tool_name_format":
      return en
        ? `The tool name ${quoted(f.excerpt, lang)} (${counted(f.count, "character")}) does not match the MCP spec's format ^[A-Za-z0-9_.-]{1,128}$.`
        : `工具名称${quoted(f.excerpt, lang)}（${n(f.count)} 个字符）不符合 MCP 规范的格式 ^[A-Za-z0-9_.-]{1,128}$。`;
    case "duplicate_tool_name": {
      const names = (f.names ?? []).map((x) => `\`${x}\``).join(", ");
      if ((f.names?.length ?? 0) > 1) {
        return en
          ? `The tool list has ${n(f.count)} names that differ only by case: ${names}.`
          : `工具列表中有 ${n(f.count)} 个仅大小写不同的名称：${names}。`;
      }
      return en ? `The tool list names ${names} ${n(f.count)} times.` : `工具列表中名称 ${names} 出现了 ${n(f.count)} 次。`;
    }
    case "annotation_contradiction":
      return en
        ? `${tool} declares readOnlyHint: true together with destructiveHint: true, which the MCP spec defines as opposites.`
        : `工具 ${tool} 同时声明了 readOnlyHint: true 与 destructiveHint: true，而 MCP 规范把二者定义为相反的含义。`;
    case "annotation_not_boolean":
      return en
        ? `${tool} declares ${(f.names ?? []).join(", ")} with a value that is not a boolean (${shownText(f.value ?? "", 60)}); the MCP spec defines hints as booleans.`
        : `工具 ${tool} 为 ${(f.names ?? []).join(", ")} 声明了非布尔值（${shownText(f.value ?? "", 60)}）；MCP 规范规定这些提示是布尔值。`;
  }
}

/** The public shape: the facts plus the English sentence (architecture.md §2.9, the `observations` contract). */
export function withSentence(f: ObservationFacts): Observation {
  return { ...f, sentence: observationSentence(f, "en") };
}
