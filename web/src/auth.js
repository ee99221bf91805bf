// Signs a request as the SDKs do (wire-protocol.md §2): HMAC-SHA256 with the account
// key over verb, resource type, resource link and date, in the browser's WebCrypto.
// The key lives only in this page's memory, typed in by the user; it is never part of
// the served files.

const encoder = new TextEncoder();

function base64ToBytes(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes) {
  let binary = "";
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** A signer for one account key (base64); throws when the key is not base64. */
export async function makeSigner(key) {
  const raw = base64ToBytes(key.trim());
  const hmac = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return async function sign(verb, resourceType, resourceLink, date) {
    const text = `${verb.toLowerCase()}\n${resourceType.toLowerCase()}\n${resourceLink}\n${date.toLowerCase()}\n\n`;
    const signature = bytesToBase64(await crypto.subtle.sign("HMAC", hmac, encoder.encode(text)));
    return encodeURIComponent(`type=master&ver=1.0&sig=${signature}`);
  };
}
