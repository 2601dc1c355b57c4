import { parseArgs, type ParseArgsConfig } from "node:util";

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig["options"]>;

/** Bad usage: the message goes to stderr with the usage text, and the command exits 2. */
export class UsageError extends Error {}

export interface ArgMessages {
  unknown: (flag: string) => string;
  noValue: (flag: string) => string;
  valueGiven: (flag: string) => string;
}

const MESSAGES: ArgMessages = {
  unknown: (flag) => `unknown option ${flag}`,
  noValue: (flag) => `${flag} needs a value`,
  valueGiven: (flag) => `${flag} takes no value`,
};

export type ArgValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Node's util.parseArgs, with problems reported in argument order as UsageErrors worded for each command.
 * A string option never takes the next flag as its value; `help` (when declared) wins if it comes first. */
export function readArgs(
  argv: readonly string[],
  options: ParseArgsOptionsConfig,
  messages: Partial<ArgMessages> = {},
): { values: ArgValues; positionals: string[]; help: boolean } {
  const say = { ...MESSAGES, ...messages };
  const { values, positionals, tokens } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: false, tokens: true });
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const spec = options[t.name];
    if (!spec) throw new UsageError(say.unknown(t.rawName));
    if (t.name === "help") return { values, positionals, help: true };
    if (spec.type === "boolean" && t.value !== undefined) throw new UsageError(say.valueGiven(t.rawName));
    if (spec.type === "string" && (t.value === undefined || (!t.inlineValue && t.value.startsWith("--")))) {
      throw new UsageError(say.noValue(t.rawName));
    }
  }
  return { values, positionals, help: false };
}

/** Runs a parse, sending any UsageError to the command's own `usage` (which prints and exits 2). */
export function argsOrUsage<T>(usage: (message: string) => never, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof UsageError) usage(e.message);
    throw e;
  }
}
