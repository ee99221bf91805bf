// An SDK plugin that records the item query requests (and query-plan requests) the
// SDK sends, to check which protocol path and which partition key ranges it used.

/** Records the item query requests (and plan requests) the SDK sends, with their headers. */
export function queryRecorder() {
  const log = [];
  const plugin = {
    on: "request",
    plugin: async (context, diagnosticNode, next) => {
      const h = context.headers ?? {};
      const header = (name) => {
        for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return v;
        return undefined;
      };
      const isPlan = String(header("x-ms-cosmos-is-query-plan-request") ?? "").toLowerCase() === "true";
      if ((context.operationType === "query" || isPlan) && /\/docs$/.test(context.path ?? "")) {
        const body = typeof context.body === "string" ? context.body : JSON.stringify(context.body ?? "");
        log.push({
          path: context.path,
          plan: isPlan,
          rangeId: header("x-ms-documentdb-partitionkeyrangeid"),
          body,
        });
      }
      return next(context, diagnosticNode);
    },
  };
  return { log, plugin };
}
