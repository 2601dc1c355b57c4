import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// Owners' values at rest (architecture.md §11): AES-256-GCM from node:crypto, a fresh 96-bit IV per value, the row's identity
// bound in as associated data so a sealed value cannot be moved to another claim or name. The key id (the first 8 hex digits
// of the key's SHA-256) says which key sealed a value, so a rotation can read the previous key's values.

/** SECRETS_KEY and, during a rotation, SECRETS_KEY_PREVIOUS. */
export interface SecretsKeys {
  current: Buffer;
  previous?: Buffer;
}

const VERSION = "v1";

export const keyId = (key: Buffer) => createHash("sha256").update(key).digest("hex").slice(0, 8);

/** Seals `plain` under the current key: `v1:<key id>:<iv>:<tag>:<ciphertext>`, base64url parts. */
export function seal(keys: SecretsKeys, plain: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.current, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, keyId(keys.current), iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(
    ":",
  );
}

/** Which of the keys sealed a value: "current", "previous", or null when neither did (another key, or not a sealed value). */
export function sealedWith(keys: SecretsKeys, sealed: string): "current" | "previous" | null {
  const id = sealed.split(":")[1];
  if (id === keyId(keys.current)) return "current";
  if (keys.previous && id === keyId(keys.previous)) return "previous";
  return null;
}

/** The plain value, or null when no key given can open it (another SECRETS_KEY, a damaged or moved value). Never throws. */
export function unseal(keys: SecretsKeys, sealed: string, aad: string): string | null {
  const parts = sealed.split(":");
  if (parts.length !== 5 || parts[0] !== VERSION) return null;
  const which = sealedWith(keys, sealed);
  const key = which === "current" ? keys.current : which === "previous" ? keys.previous : undefined;
  if (!key) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(parts[2]!, "base64url"));
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(Buffer.from(parts[3]!, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(parts[4]!, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** The associated data of one stored value. */
export const secretAad = (claimId: number, kind: string, name: string) => `owner-secret:${claimId}:${kind}:${name.toLowerCase()}`;
