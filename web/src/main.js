// Orrery's Data Explorer: sign in with the account key, then browse databases and
// containers, edit items, run queries and watch a container's physical partitions.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { html, formatCharge } from "./html.js";
import { Api } from "./api.js";
import { Tree } from "./tree.js";
import { ContainerForm } from "./container_form.js";
import { Items } from "./items.js";
import { Query } from "./query.js";
import { Partitions } from "./partitions.js";

function SignIn({ onConnected }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState(null);
  async function submit(event) {
    event.preventDefault();
    try {
      onConnected(await Api.connect(key));
    } catch (e) {
      setError(e.message);
    }
  }
  return html`<form class="panel sign-in" onSubmit=${submit}>
    <h2>Sign in</h2>
    <p>Enter the account key the server was started with (<code>--key</code>; without it, the
      Cosmos DB emulator's well-known key). It stays in this page's memory and signs each request.</p>
    <input aria-label="Account key" type="password" autocomplete="off" value=${key}
      onInput=${(e) => setKey(e.target.value)} required />
    <button type="submit">Connect</button>
    ${error && html`<p class="problem" role="alert">${error}</p>`}
  </form>`;
}

function ContainerView({ api, db, coll, report }) {
  const [tab, setTab] = useState("items");
  const [definition, setDefinition] = useState(null);
  useEffect(() => {
    setDefinition(null);
    api.readContainer(db, coll).then((r) => setDefinition(r.body), report);
  }, [db, coll]);
  if (!definition) return html`<div class="panel">Loading ${db}/${coll}…</div>`;
  const paths = definition.partitionKey.paths;
  const tabs = [
    ["items", "Items"],
    ["query", "Query"],
    ["partitions", "Partitions"],
    ["settings", "Settings"],
  ];
  return html`<div class="container-view">
    <h2>${db} / ${coll} <small>partition key ${paths.join(", ")}</small></h2>
    <div class="tabs" role="tablist">
      ${tabs.map(
        ([id, label]) => html`<button role="tab" key=${id} aria-selected=${tab === id} class=${tab === id ? "active" : ""}
          onClick=${() => setTab(id)}>${label}</button>`,
      )}
    </div>
    ${tab === "items" && html`<${Items} api=${api} db=${db} coll=${coll} paths=${paths} report=${report} />`}
    ${tab === "query" && html`<${Query} api=${api} db=${db} coll=${coll} report=${report} />`}
    ${tab === "partitions" && html`<${Partitions} api=${api} db=${db} coll=${coll} report=${report} />`}
    ${tab === "settings" && html`<pre class="panel settings">${JSON.stringify(definition, null, 2)}</pre>`}
  </div>`;
}

function App() {
  const [api, setApi] = useState(null);
  const [selected, setSelected] = useState(null);
  const [creatingIn, setCreatingIn] = useState(null);
  const [status, setStatus] = useState(null);
  const [treeVersion, setTreeVersion] = useState(0);

  // Every action ends here: its message and request charge, or the server's error.
  function report(error, message, charge) {
    if (error) {
      const code = error.status ? ` (${error.status}${error.code ? " " + error.code : ""})` : "";
      setStatus({ error: true, text: `${error.message}${code}`, charge: error.charge });
    } else {
      setStatus({ error: false, text: message, charge });
    }
  }

  if (!api) {
    return html`<main><header><h1>Orrery Data Explorer</h1></header><${SignIn} onConnected=${setApi} /></main>`;
  }
  return html`<main>
    <header><h1>Orrery Data Explorer</h1></header>
    <div class="layout">
      <${Tree} api=${api} selected=${selected} version=${treeVersion} report=${report}
        onSelect=${(s) => (setCreatingIn(null), setSelected(s))} onNewContainer=${(db) => setCreatingIn(db)} />
      <section class="main">
        ${creatingIn
          ? html`<${ContainerForm} api=${api} db=${creatingIn} report=${report}
              onDone=${(created) => {
                setCreatingIn(null);
                setTreeVersion(treeVersion + 1);
                if (created) setSelected(created);
              }} />`
          : selected
            ? html`<${ContainerView} key=${selected.db + "/" + selected.coll} api=${api} db=${selected.db} coll=${selected.coll} report=${report} />`
            : html`<p class="panel">Choose a container, or create a database and a container in it.</p>`}
      </section>
    </div>
    <footer class=${"status" + (status && status.error ? " error" : "")} role="status">
      ${status && html`<span class="status-text">${status.text}</span>`}
      ${status && status.charge !== undefined && html`<span class="status-charge">${formatCharge(status.charge)}</span>`}
    </footer>
  </main>`;
}

render(html`<${App} />`, document.getElementById("app"));
