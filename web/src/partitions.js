// A container's physical partitions, refreshed live: each one's EPK range, its share of
// the storage and of the request units, the 429s it answered, and its largest logical
// partitions against the logical partition limit (20 GB in the service).
import { useEffect, useState } from "preact/hooks";
import { html, formatBytes, formatCharge } from "./html.js";

const REFRESH_MS = 2000;

function share(part, whole) {
  return whole > 0 ? (100 * part) / whole : 0;
}

function Bar({ percent, label, kind }) {
  return html`<div class=${"bar " + kind} title=${label}>
    <div class="fill" style=${`width: ${Math.min(100, percent).toFixed(2)}%`}></div>
    <span>${label}</span>
  </div>`;
}

export function Partitions({ api, db, coll, report }) {
  const [stats, setStats] = useState(null);
  const [updated, setUpdated] = useState(null);

  useEffect(() => {
    let live = true;
    let timer = null;
    async function refresh() {
      try {
        const r = await api.statistics(db, coll);
        if (!live) return;
        setStats(r.body);
        setUpdated(new Date());
      } catch (e) {
        if (live) report(e);
      }
      if (live) timer = setTimeout(refresh, REFRESH_MS);
    }
    refresh();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [db, coll]);

  if (!stats) return html`<div class="panel">Reading partition statistics…</div>`;
  const partitions = stats.physicalPartitions;
  const totalCharge = partitions.reduce((s, p) => s + p.requestCharge, 0);
  const limit = stats.logicalPartitionMaxBytes;
  return html`<div class="partitions panel">
    <p class="summary">
      ${`${partitions.length} physical partition${partitions.length > 1 ? "s" : ""} · ${stats.itemCount} items · `}
      ${`${formatBytes(stats.sizeBytes)} · ${stats.logicalPartitions} logical partitions`}
      <small>${` · updated ${updated.toLocaleTimeString()}`}</small>
    </p>
    ${partitions.map(
      (p) => html`<section class="partition" key=${p.id} data-partition=${p.id}>
        <h3>Partition ${p.id}</h3>
        <p class="range">EPK range [${p.minInclusive || '""'}, ${p.maxExclusive})</p>
        <${Bar} kind="storage" percent=${share(p.sizeBytes, stats.sizeBytes)}
          label=${`storage ${formatBytes(p.sizeBytes)} (${share(p.sizeBytes, stats.sizeBytes).toFixed(1)}%) · ${p.itemCount} items`} />
        <${Bar} kind="ru" percent=${share(p.requestCharge, totalCharge)}
          label=${`request units ${formatCharge(p.requestCharge)} (${share(p.requestCharge, totalCharge).toFixed(1)}%) · ${p.ruPerSecond.toFixed(1)} RU/s now`} />
        <p class=${"throttled" + (p.throttledRequests > 0 ? " hot" : "")}>429s: <span class="count">${p.throttledRequests}</span></p>
        <h4>Largest logical partitions</h4>
        <div class="logical">
          ${p.largestLogicalPartitions.map(
            (l) => html`<div class="logical-row" key=${JSON.stringify(l.partitionKey)}>
              <code>${JSON.stringify(l.partitionKey)}</code>
              <div class="bar limit" title=${`${formatBytes(l.sizeBytes)} of the ${formatBytes(limit)} limit`}>
                <div class="fill" style=${`width: ${Math.max(0.5, share(l.sizeBytes, limit)).toFixed(3)}%`}></div>
                <div class="limit-line" title=${`logical partition limit: ${formatBytes(limit)}`}></div>
                <span>${formatBytes(l.sizeBytes)} · ${l.itemCount} items · ${share(l.sizeBytes, limit).toFixed(4)}% of ${formatBytes(limit)}</span>
              </div>
            </div>`,
          )}
        </div>
      </section>`,
    )}
  </div>`;
}
