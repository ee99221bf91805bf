// The benchmark data set, shared by every client that preloads or addresses it.

// A JSON document of exactly `size` bytes: {"id":..,"pk":..,"n":..,"payload":"xxx..."}.
export function itemBody(id, pk, n, size) {
  const head = `{"id":"${id}","pk":"${pk}","n":${n},"payload":"`;
  const tail = '"}';
  const pad = Math.max(0, size - head.length - tail.length);
  return head + 'x'.repeat(pad) + tail;
}

// Point-operation items: one logical partition each.
export const readId = (i) => `r${String(i).padStart(6, '0')}`;
export const readPk = (i) => `p${String(i).padStart(6, '0')}`;
