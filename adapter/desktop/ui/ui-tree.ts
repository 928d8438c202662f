/**
 * From a provider's raw tree to what a model reads: elements the OS says are off screen are
 * dropped, nameless generic containers are flattened into their parent, an optional text filter
 * keeps matches with their ancestors, and depth and count limits cut the rest breadth-first
 * (the top of the tree first), counting what was cut. Pure functions.
 */
import type { NativeNode } from './accessibility-provider.js';
import type { UiState } from '../../contract/ui.js';

/** The common role for containers that carry no meaning of their own (div, panel, filler). */
export const GENERIC_ROLE = 'generic';

export interface ShapedNode {
  ref: string;
  role: string;
  name: string;
  value?: string;
  states: UiState[];
  bounds: NativeNode['bounds'];
  children: ShapedNode[];
}

export interface ShapeOptions {
  maxDepth: number;
  maxNodes: number;
  text?: string;
}

export interface ShapedTree {
  roots: ShapedNode[];
  count: number;
  byDepth: number;
  byCount: number;
  filteredOut: number;
}

const isWrapper = (n: NativeNode) => n.role === GENERIC_ROLE && !n.name && n.value === undefined && !n.states.includes('focusable');

/** Visible, meaningful nodes with wrappers replaced by their children. Roots are always kept. */
function simplify(node: NativeNode, isRoot: boolean): { nodes: ShapedNode[]; unfetched: number } {
  let unfetched = node.unfetchedChildren ?? 0;
  const children: ShapedNode[] = [];
  for (const child of node.children) {
    if (!child.showing) continue;
    const sub = simplify(child, false);
    children.push(...sub.nodes);
    unfetched += sub.unfetched;
  }
  if (!isRoot && isWrapper(node)) return { nodes: children, unfetched };
  const shaped: ShapedNode = { ref: node.ref, role: node.role, name: node.name, states: node.states, bounds: node.bounds, children };
  if (node.value !== undefined) shaped.value = node.value;
  return { nodes: [shaped], unfetched };
}

const size = (n: ShapedNode): number => 1 + n.children.reduce((sum, c) => sum + size(c), 0);

function matches(node: ShapedNode, needle: string): boolean {
  return [node.role, node.name, node.value ?? ''].some((s) => s.toLowerCase().includes(needle));
}

/** Keeps matches and their ancestors; a match keeps its whole subtree. Returns how many were removed. */
function filter(nodes: ShapedNode[], needle: string): { kept: ShapedNode[]; removed: number } {
  const kept: ShapedNode[] = [];
  let removed = 0;
  for (const node of nodes) {
    if (matches(node, needle)) {
      kept.push(node);
      continue;
    }
    const sub = filter(node.children, needle);
    removed += sub.removed;
    if (sub.kept.length > 0) kept.push({ ...node, children: sub.kept });
    else removed += 1;
  }
  return { kept, removed };
}

export function shapeTree(roots: NativeNode[], options: ShapeOptions, unfetched = 0): ShapedTree {
  let simplified: ShapedNode[] = [];
  let byCount = unfetched;
  for (const root of roots) {
    const sub = simplify(root, true);
    simplified.push(...sub.nodes);
    byCount += sub.unfetched;
  }
  let filteredOut = 0;
  const needle = options.text?.trim().toLowerCase();
  if (needle) {
    const filtered = filter(simplified, needle);
    simplified = filtered.kept;
    filteredOut = filtered.removed;
  }

  // Breadth-first under the limits: a node beyond maxDepth or past maxNodes is cut with its subtree.
  let byDepth = 0;
  let count = 0;
  const out: ShapedNode[] = [];
  let level: Array<{ node: ShapedNode; into: ShapedNode[] }> = simplified.map((node) => ({ node, into: out }));
  for (let depth = 0; level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { node, into } of level) {
      if (depth > options.maxDepth) byDepth += size(node);
      else if (count >= options.maxNodes) byCount += size(node);
      else {
        count++;
        const copy: ShapedNode = { ...node, children: [] };
        into.push(copy);
        for (const child of node.children) next.push({ node: child, into: copy.children });
      }
    }
    level = next;
  }
  return { roots: out, count, byDepth, byCount, filteredOut };
}

/** Every node in document order (depth-first), for searching. */
export function* walk(nodes: ShapedNode[]): Generator<ShapedNode> {
  for (const node of nodes) {
    yield node;
    yield* walk(node.children);
  }
}
