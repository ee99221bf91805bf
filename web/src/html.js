// Preact with htm's tagged templates: components without a JSX compile step.
import { h } from "preact";
import htm from "htm";

export const html = htm.bind(h);

/** "2.35 RU" for a request charge. */
export function formatCharge(charge) {
  return `${Number(charge || 0).toFixed(2)} RU`;
}

export function formatBytes(bytes) {
  if (bytes >= 1 << 30) return `${(bytes / (1 << 30)).toFixed(2)} GB`;
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(2)} MB`;
  if (bytes >= 1 << 10) return `${(bytes / (1 << 10)).toFixed(1)} KB`;
  return `${bytes} B`;
}
