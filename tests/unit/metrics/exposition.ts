// Reads the Prometheus text format back into families and samples, strictly enough that a duplicate family,
// a sample without HELP and TYPE, or a series exported twice fails a test.

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedExposition {
  help: Map<string, string>;
  type: Map<string, string>;
  samples: ParsedSample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): ParsedExposition {
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  const samples: ParsedSample[] = [];
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      const map = meta[1] === "HELP" ? help : type;
      if (map.has(meta[2]!)) throw new Error(`second ${meta[1]} line for ${meta[2]}`);
      map.set(meta[2]!, meta[3]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(LABEL)) labels[l[1]!] = l[2]!;
    const key = `${m[1]}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`series exported twice: ${line}`);
    seen.add(key);
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  for (const s of samples) {
    const family = s.name.replace(/_(bucket|sum|count)$/, "");
    if (!type.has(s.name) && !type.has(family)) throw new Error(`sample ${s.name} has no TYPE line`);
    if (!help.has(s.name) && !help.has(family)) throw new Error(`sample ${s.name} has no HELP line`);
  }
  return { help, type, samples };
}

/** The value of the one sample with this name and (at least) these labels; throws when none or several match. */
export function valueOf(p: ParsedExposition, name: string, labels: Record<string, string> = {}): number {
  const found = p.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

export const sumOf = (p: ParsedExposition, name: string) => p.samples.filter((s) => s.name === name).reduce((n, s) => n + s.value, 0);
