// The query editor: results page by page, with each page's request charge, the query
// metrics, the indexes used and missed, and the physical partitions the query read.
import { useState } from "preact/hooks";
import { html, formatCharge } from "./html.js";

/** "a=1;b=2" (x-ms-documentdb-query-metrics) as [[a, 1], [b, 2]]. */
export function parseMetrics(header) {
  if (!header) return [];
  return header
    .split(";")
    .filter(Boolean)
    .map((pair) => pair.split("="));
}

function indexList(indexes) {
  const single = (indexes && indexes.SingleIndexes) || [];
  const composite = (indexes && indexes.CompositeIndexes) || [];
  const all = [...single.map((i) => i.IndexSpec), ...composite.map((i) => i.IndexSpecs.join(", "))];
  return all.length ? all.join("; ") : "none";
}

export function Query({ api, db, coll, report }) {
  const [text, setText] = useState("SELECT * FROM c");
  const [partitionKey, setPartitionKey] = useState("");
  const [pageSize, setPageSize] = useState("100");
  const [pages, setPages] = useState([]);
  const [continuation, setContinuation] = useState(null);
  const [running, setRunning] = useState(false);

  async function run(next) {
    let key;
    if (partitionKey.trim()) {
      try {
        const parsed = JSON.parse(partitionKey);
        key = Array.isArray(parsed) ? parsed : [parsed];
      } catch (e) {
        report(new Error(`The partition key is not a JSON value (write "a", 1 or ["a", "b"]): ${e.message}`));
        return;
      }
    }
    setRunning(true);
    try {
      const r = await api.query(db, coll, text, {
        continuation: next ? continuation : undefined,
        partitionKey: key,
        pageSize: Number(pageSize) || 100,
      });
      let indexes = null;
      const utilization = r.headers.get("x-ms-cosmos-index-utilization");
      if (utilization) {
        try {
          indexes = JSON.parse(decodeURIComponent(utilization));
        } catch {
          indexes = null;
        }
      }
      const page = {
        documents: r.body.Documents,
        charge: r.charge,
        metrics: parseMetrics(r.headers.get("x-ms-documentdb-query-metrics")),
        indexes,
        partitions: r.headers.get("x-ms-orrery-partitions-touched"),
      };
      setPages(next ? [...pages, page] : [page]);
      setContinuation(r.headers.get("x-ms-continuation"));
      report(null, `Query page ${next ? pages.length + 1 : 1}: ${page.documents.length} results`, r.charge);
    } catch (e) {
      report(e);
    } finally {
      setRunning(false);
    }
  }

  const total = pages.reduce((sum, p) => sum + p.charge, 0);
  const last = pages[pages.length - 1];
  const results = pages.flatMap((p) => p.documents);
  return html`<div class="query panel">
    <textarea aria-label="Query text" class="json" rows="4" spellcheck="false" value=${text}
      onInput=${(e) => setText(e.target.value)}></textarea>
    <div class="toolbar">
      <label>Partition key <input aria-label="Partition key" placeholder='all partitions, or "a" / ["a","b"]'
        value=${partitionKey} onInput=${(e) => setPartitionKey(e.target.value)} /></label>
      <label>Page size <input aria-label="Page size" type="number" min="1" max="1000" value=${pageSize}
        onInput=${(e) => setPageSize(e.target.value)} /></label>
      <button onClick=${() => run(false)} disabled=${running}>Run query</button>
      ${continuation && html`<button onClick=${() => run(true)} disabled=${running}>Next page</button>`}
    </div>
    ${last &&
    html`<div class="query-stats">
      <dl>
        <dt>Results</dt><dd class="result-count">${results.length} in ${pages.length} page${pages.length > 1 ? "s" : ""}</dd>
        <dt>Request charge</dt><dd class="query-charge">${formatCharge(total)}</dd>
        <dt>Partitions touched</dt><dd class="partitions-touched">${last.partitions || "?"}</dd>
        <dt>Indexes used</dt><dd class="indexes-used">${last.indexes ? indexList(last.indexes.UtilizedIndexes) : "?"}</dd>
        <dt>Indexes that would help</dt><dd>${last.indexes ? indexList(last.indexes.PotentialIndexes) : "?"}</dd>
      </dl>
      <details>
        <summary>Query metrics (last page)</summary>
        <table class="metrics">${last.metrics.map(([k, v]) => html`<tr key=${k}><td>${k}</td><td>${v}</td></tr>`)}</table>
      </details>
    </div>`}
    <pre class="results">${last ? JSON.stringify(results, null, 2) : ""}</pre>
  </div>`;
}
