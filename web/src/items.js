// A container's items: a paged list, a JSON editor that checks what is typed, and
// create, save (with the item's etag: a concurrent change is refused, not overwritten)
// and delete, each with its request charge.
import { useEffect, useState } from "preact/hooks";
import { html, formatCharge } from "./html.js";
import { partitionKeyOf } from "./api.js";

const SYSTEM = ["_rid", "_self", "_etag", "_attachments", "_ts"];

function withoutSystemProperties(item) {
  const copy = { ...item };
  for (const p of SYSTEM) delete copy[p];
  return copy;
}

export function Items({ api, db, coll, paths, report }) {
  const [items, setItems] = useState([]);
  const [continuation, setContinuation] = useState(null);
  const [listCharge, setListCharge] = useState(0);
  const [editing, setEditing] = useState(null); // {original | null, text}
  const [problem, setProblem] = useState(null);

  async function load(more) {
    try {
      const r = await api.query(db, coll, "SELECT * FROM c", { continuation: more ? continuation : undefined });
      setItems(more ? [...items, ...r.body.Documents] : r.body.Documents);
      setContinuation(r.headers.get("x-ms-continuation"));
      setListCharge((more ? listCharge : 0) + r.charge);
    } catch (e) {
      report(e);
    }
  }
  useEffect(() => {
    setEditing(null);
    load(false);
  }, [db, coll]);

  function edit(original) {
    const text = JSON.stringify(original ? withoutSystemProperties(original) : { id: "" }, null, 2);
    setEditing({ original, text });
    setProblem(null);
  }
  function onText(event) {
    const text = event.target.value;
    setEditing({ ...editing, text });
    try {
      const value = JSON.parse(text);
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        setProblem("An item is a JSON object.");
      } else if (typeof value.id !== "string" || value.id === "") {
        setProblem('An item needs an "id" string.');
      } else {
        setProblem(null);
      }
    } catch (e) {
      setProblem(`Not valid JSON: ${e.message}`);
    }
  }
  async function save() {
    const item = JSON.parse(editing.text);
    try {
      const key = partitionKeyOf(item, paths);
      const original = editing.original;
      const r = original
        ? await api.replaceItem(db, coll, original.id, item, partitionKeyOf(original, paths), original._etag)
        : await api.createItem(db, coll, item, key);
      report(null, `${original ? "Saved" : "Created"} item ${item.id}`, r.charge);
      setEditing({ original: r.body, text: JSON.stringify(withoutSystemProperties(r.body), null, 2) });
      load(false);
    } catch (e) {
      report(e);
    }
  }
  async function remove() {
    const original = editing.original;
    if (!confirm(`Delete item ${original.id}?`)) return;
    try {
      const r = await api.deleteItem(db, coll, original.id, partitionKeyOf(original, paths));
      report(null, `Deleted item ${original.id}`, r.charge);
      setEditing(null);
      load(false);
    } catch (e) {
      report(e);
    }
  }

  return html`<div class="items">
    <div class="item-list panel">
      <div class="toolbar">
        <button onClick=${() => edit(null)}>New item</button>
        <button onClick=${() => load(false)}>Refresh</button>
        <span class="charge" title="Request charge of the listed pages">${formatCharge(listCharge)}</span>
      </div>
      <table>
        <thead><tr><th>id</th><th>${paths.join(", ")}</th></tr></thead>
        <tbody>
          ${items.map(
            (item) => html`<tr key=${item._rid} class=${editing && editing.original && editing.original._rid === item._rid ? "selected" : ""}
              onClick=${() => edit(item)} data-id=${item.id}>
              <td>${item.id}</td><td>${JSON.stringify(partitionKeyOf(item, paths))}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${continuation && html`<button onClick=${() => load(true)}>Load more</button>`}
    </div>
    ${editing &&
    html`<div class="editor panel">
      <h3>${editing.original ? `Item ${editing.original.id}` : "New item"}</h3>
      ${editing.original && html`<p class="meta">_etag ${editing.original._etag} · _ts ${editing.original._ts}</p>`}
      <textarea aria-label="Item JSON" class="json" spellcheck="false" rows="18" value=${editing.text} onInput=${onText}></textarea>
      ${problem && html`<p class="problem" role="alert">${problem}</p>`}
      <div class="actions">
        <button onClick=${save} disabled=${!!problem}>${editing.original ? "Save" : "Create"}</button>
        ${editing.original && html`<button class="danger" onClick=${remove}>Delete</button>`}
        <button onClick=${() => setEditing(null)}>Close</button>
      </div>
    </div>`}
  </div>`;
}
