// Creating a container: partition key paths (several make a hierarchical key),
// throughput, time to live, unique keys and an indexing policy.
import { useState } from "preact/hooks";
import { html } from "./html.js";

/** The container definition the form describes, or throws with what is wrong. */
export function containerDefinition(form) {
  const id = form.id.trim();
  if (!id) throw new Error("The container needs an id.");
  const paths = form.partitionKey.split(",").map((p) => p.trim()).filter(Boolean);
  if (paths.length === 0) throw new Error("The container needs a partition key path, such as /tenantId.");
  if (paths.length > 3) throw new Error("A hierarchical partition key has at most 3 paths.");
  const definition = {
    id,
    partitionKey: { paths, kind: paths.length > 1 ? "MultiHash" : "Hash", version: 2 },
  };
  if (form.ttl === "on") definition.defaultTtl = -1;
  if (form.ttl === "seconds") {
    const seconds = Number(form.ttlSeconds);
    if (!Number.isInteger(seconds) || seconds < 1) throw new Error("The time to live is a whole number of seconds, at least 1.");
    definition.defaultTtl = seconds;
  }
  const uniqueKeys = form.uniqueKeys
    .split("\n")
    .map((line) => line.split(",").map((p) => p.trim()).filter(Boolean))
    .filter((keyPaths) => keyPaths.length > 0);
  if (uniqueKeys.length) definition.uniqueKeyPolicy = { uniqueKeys: uniqueKeys.map((p) => ({ paths: p })) };
  if (form.indexingPolicy.trim()) {
    try {
      definition.indexingPolicy = JSON.parse(form.indexingPolicy);
    } catch (e) {
      throw new Error(`The indexing policy is not valid JSON: ${e.message}`);
    }
  }
  return definition;
}

export function ContainerForm({ api, db, onDone, report }) {
  const [form, setForm] = useState({
    id: "",
    partitionKey: "/id",
    throughputMode: "manual",
    throughput: "400",
    ttl: "off",
    ttlSeconds: "3600",
    uniqueKeys: "",
    indexingPolicy: "",
  });
  const set = (field) => (event) => setForm({ ...form, [field]: event.target.value });

  async function submit(event) {
    event.preventDefault();
    try {
      const definition = containerDefinition(form);
      const throughput = { mode: form.throughputMode, value: Number(form.throughput) };
      const r = await api.createContainer(db, definition, throughput);
      report(null, `Created container ${db}/${definition.id}`, r.charge);
      onDone({ db, coll: definition.id });
    } catch (e) {
      report(e);
    }
  }

  return html`<form class="panel container-form" onSubmit=${submit}>
    <h2>New container in ${db}</h2>
    <label>Container id <input name="id" value=${form.id} onInput=${set("id")} required /></label>
    <label>Partition key paths <small>(comma-separated for a hierarchical key: /tenantId,/userId)</small>
      <input name="partitionKey" value=${form.partitionKey} onInput=${set("partitionKey")} required /></label>
    <fieldset>
      <legend>Throughput</legend>
      <select name="throughputMode" value=${form.throughputMode} onChange=${set("throughputMode")}>
        <option value="manual">Manual (RU/s)</option>
        <option value="autoscale">Autoscale (max RU/s)</option>
        <option value="none">Shared with the database</option>
      </select>
      ${form.throughputMode !== "none" &&
      html`<input name="throughput" type="number" min="400" step="100" value=${form.throughput} onInput=${set("throughput")} />`}
    </fieldset>
    <fieldset>
      <legend>Time to live</legend>
      <select name="ttl" value=${form.ttl} onChange=${set("ttl")}>
        <option value="off">Off</option>
        <option value="on">On (no default)</option>
        <option value="seconds">On, default in seconds</option>
      </select>
      ${form.ttl === "seconds" && html`<input name="ttlSeconds" type="number" min="1" value=${form.ttlSeconds} onInput=${set("ttlSeconds")} />`}
    </fieldset>
    <label>Unique keys <small>(one key per line, its paths comma-separated)</small>
      <textarea name="uniqueKeys" rows="2" value=${form.uniqueKeys} onInput=${set("uniqueKeys")}></textarea></label>
    <label>Indexing policy <small>(JSON; empty for the default: every path)</small>
      <textarea name="indexingPolicy" rows="5" value=${form.indexingPolicy} onInput=${set("indexingPolicy")}></textarea></label>
    <div class="actions">
      <button type="submit">Create container</button>
      <button type="button" onClick=${() => onDone(null)}>Cancel</button>
    </div>
  </form>`;
}
