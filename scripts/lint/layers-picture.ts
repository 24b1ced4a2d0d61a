// The picture of who imports whom in ARCHITECTURE.md is drawn from the lint rule itself, so the two
// cannot drift apart: `layers-picture.test.ts` fails when the document's picture is not this one.
import { ALLOWED } from '../../eslint.layers.js';

type Graph = Record<string, readonly string[]>;

/** Every layer reachable from `from` through allowed imports, itself excluded. */
function reachable(graph: Graph, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(graph[from] ?? [])];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(graph[next] ?? []));
  }
  return seen;
}

/** The allowed imports without the ones another allowed path already implies: the drawable edges. */
export function directEdges(graph: Graph): Array<[string, string]> {
  const edges: Array<[string, string]> = [];
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets) {
      const impliedElsewhere = targets.some((other) => other !== to && reachable(graph, other).has(to));
      if (!impliedElsewhere) edges.push([from, to]);
    }
  }
  return edges.sort(([a, b], [c, d]) => a.localeCompare(c) || b.localeCompare(d));
}

/**
 * The layers an import may not name although the arrows reach them: the rule is not transitive (the
 * CLI reaches the adapters through the host and the composition root, and may not import one).
 */
export function refusedShortcuts(graph: Graph): Array<[string, string[]]> {
  const rows: Array<[string, string[]]> = [];
  for (const from of Object.keys(graph).sort()) {
    const allowed = new Set(graph[from]);
    const refused = [...reachable(graph, from)].filter((to) => to !== from && !allowed.has(to)).sort();
    if (refused.length > 0) rows.push([from, refused]);
  }
  return rows;
}

/** A Mermaid graph of the layers (GitHub draws it; as text it reads as a list of arrows). */
export function layersPicture(graph: Graph = ALLOWED): string {
  const id = (layer: string): string => layer.replace(/-/g, '_');
  const lines = ['```mermaid', 'graph TD'];
  for (const layer of Object.keys(graph).sort()) lines.push(`  ${id(layer)}[${layer}]`);
  for (const [from, to] of directEdges(graph)) lines.push(`  ${id(from)} --> ${id(to)}`);
  lines.push('```', '', 'Reachable through the arrows but refused as a direct import:', '');
  for (const [from, refused] of refusedShortcuts(graph)) lines.push(`- ${from} ↛ ${refused.join(', ')}`);
  return lines.join('\n');
}
