// npm run secrets -- rotate: seals every owner's value under SECRETS_KEY again (architecture.md §11). Set the new key as
// SECRETS_KEY and the old one as SECRETS_KEY_PREVIOUS, run this, then drop SECRETS_KEY_PREVIOUS.
import { getDb } from "../../db/client";
import { getConfig } from "../config";
import { rotateSecrets } from "../rounds/owners/rotate";
import { secretsKeysOf } from "../rounds/owners/wiring";

const USAGE = `usage:
  npm run secrets -- rotate   seal every stored owner value under SECRETS_KEY (reading SECRETS_KEY_PREVIOUS)`;

function usage(message: string): never {
  console.error(`secrets: ${message}\n${USAGE}`);
  process.exit(2);
}

function main(argv: string[]): void {
  const [command, ...rest] = argv;
  if (command !== "rotate") usage(command ? `unknown command ${command}` : "missing command");
  if (rest.length) usage(`rotate takes no arguments (got ${rest.join(" ")})`);
  const config = getConfig();
  const keys = secretsKeysOf(config);
  if (!keys) usage("SECRETS_KEY is not set");
  const s = rotateSecrets(getDb(config), keys);
  console.log(
    `[secrets] ${s.resealed} resealed under SECRETS_KEY, ${s.current} already under it, ${s.unreadable} unreadable with either key`,
  );
  if (s.unreadable > 0) process.exitCode = 1;
}

main(process.argv.slice(2));
