// `npm run secrets -- rotate` (architecture.md §11): every stored value sealed under SECRETS_KEY_PREVIOUS is opened and sealed
// again under SECRETS_KEY, in one transaction. A value neither key opens is left as it is and counted: its owner's view says
// its configuration cannot be read until the owner enters it again.
import type { Db } from "../../../db/client";
import { allSealed, updateSealed } from "../../store/owners";
import { seal, sealedWith, secretAad, unseal, type SecretsKeys } from "../../store/secrets";

export interface RotateSummary {
  resealed: number;
  current: number;
  unreadable: number;
}

export function rotateSecrets(db: Db, keys: SecretsKeys): RotateSummary {
  const summary: RotateSummary = { resealed: 0, current: 0, unreadable: 0 };
  const updates: { claimId: number; kind: "header" | "variable"; name: string; sealed: string }[] = [];
  for (const row of allSealed(db)) {
    if (sealedWith(keys, row.sealed) === "current") {
      summary.current++;
      continue;
    }
    const aad = secretAad(row.claimId, row.kind, row.name);
    const plain = unseal(keys, row.sealed, aad);
    if (plain === null) {
      summary.unreadable++;
      continue;
    }
    updates.push({ claimId: row.claimId, kind: row.kind, name: row.name, sealed: seal(keys, plain, aad) });
  }
  updateSealed(db, updates);
  summary.resealed = updates.length;
  return summary;
}
