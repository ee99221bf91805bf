// The left-hand tree: databases and their containers, with create and delete.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";

export function Tree({ api, selected, onSelect, onNewContainer, report, version }) {
  const [databases, setDatabases] = useState([]);
  const [containers, setContainers] = useState({});
  const [newDatabase, setNewDatabase] = useState("");
  const [shared, setShared] = useState({ mode: "none", value: "400" });

  async function refresh() {
    try {
      const dbs = (await api.listDatabases()).body.Databases.map((d) => d.id).sort();
      const colls = {};
      for (const db of dbs) {
        colls[db] = (await api.listContainers(db)).body.DocumentCollections.map((c) => c.id).sort();
      }
      setDatabases(dbs);
      setContainers(colls);
    } catch (e) {
      report(e);
    }
  }
  useEffect(() => {
    refresh();
  }, [version]);

  async function createDatabase(event) {
    event.preventDefault();
    try {
      const r = await api.createDatabase(newDatabase.trim(), { mode: shared.mode, value: Number(shared.value) });
      report(null, `Created database ${newDatabase.trim()}`, r.charge);
      setNewDatabase("");
      refresh();
    } catch (e) {
      report(e);
    }
  }
  async function deleteDatabase(db) {
    if (!confirm(`Delete database ${db} and all its containers?`)) return;
    try {
      const r = await api.deleteDatabase(db);
      report(null, `Deleted database ${db}`, r.charge);
      if (selected && selected.db === db) onSelect(null);
      refresh();
    } catch (e) {
      report(e);
    }
  }
  async function deleteContainer(db, coll) {
    if (!confirm(`Delete container ${db}/${coll} and all its items?`)) return;
    try {
      const r = await api.deleteContainer(db, coll);
      report(null, `Deleted container ${db}/${coll}`, r.charge);
      if (selected && selected.db === db && selected.coll === coll) onSelect(null);
      refresh();
    } catch (e) {
      report(e);
    }
  }

  return html`<nav class="tree" aria-label="Databases">
    <form class="inline" onSubmit=${createDatabase}>
      <input aria-label="New database id" placeholder="new database" value=${newDatabase}
        onInput=${(e) => setNewDatabase(e.target.value)} required />
      <button type="submit">Create database</button>
    </form>
    <div class="inline">
      <select aria-label="Database throughput" value=${shared.mode} onChange=${(e) => setShared({ ...shared, mode: e.target.value })}>
        <option value="none">No shared throughput</option>
        <option value="manual">Shared, manual RU/s</option>
        <option value="autoscale">Shared, autoscale max RU/s</option>
      </select>
      ${shared.mode !== "none" &&
      html`<input aria-label="Database RU/s" type="number" min="400" step="100" value=${shared.value}
        onInput=${(e) => setShared({ ...shared, value: e.target.value })} />`}
    </div>
    <button class="small" onClick=${refresh} title="Read the databases and containers again">Refresh</button>
    <ul>
      ${databases.map(
        (db) => html`<li key=${db} class="database" data-database=${db}>
          <div class="row">
            <span class="name">${db}</span>
            <button class="small" title="New container" onClick=${() => onNewContainer(db)}>+ container</button>
            <button class="small danger" title="Delete database" onClick=${() => deleteDatabase(db)}>delete</button>
          </div>
          <ul>
            ${(containers[db] || []).map(
              (coll) => html`<li key=${coll} class=${"container" + (selected && selected.db === db && selected.coll === coll ? " selected" : "")}
                data-container=${coll}>
                <div class="row">
                  <a href="#" onClick=${(e) => (e.preventDefault(), onSelect({ db, coll }))}>${coll}</a>
                  <button class="small danger" title="Delete container" onClick=${() => deleteContainer(db, coll)}>delete</button>
                </div>
              </li>`,
            )}
          </ul>
        </li>`,
      )}
    </ul>
  </nav>`;
}
