import { describe, expect, test } from 'vitest';
import type { NativeNode } from '../../../../adapter/desktop/ui/accessibility-provider.js';
import { shapeTree, walk } from '../../../../adapter/desktop/ui/ui-tree.js';

let refs = 0;
const node = (role: string, name = '', children: NativeNode[] = [], extra: Partial<NativeNode> = {}): NativeNode => ({
  ref: `r${++refs}`,
  role,
  name,
  states: [],
  bounds: { x: 0, y: 0, width: 10, height: 10 },
  showing: true,
  children,
  ...extra,
});

const names = (nodes: ReturnType<typeof shapeTree>['roots']): unknown[] => nodes.map((n) => (n.children.length ? [n.name, names(n.children)] : n.name));

describe('shapeTree', () => {
  const tree = () => [
    node('window', 'Win', [
      node('generic', '', [node('button', 'OK'), node('button', 'Cancel')]),
      node('generic', 'Named group', [node('text', 'label')]),
      node('textbox', 'Hidden', [node('button', 'inside hidden')], { showing: false }),
      node('generic', '', [], { states: ['focusable'] }),
      node('list', 'Items', [node('listitem', 'one'), node('listitem', 'two'), node('listitem', 'three')], { unfetchedChildren: 7 }),
    ]),
  ];

  test('drops what is not showing, flattens nameless containers, keeps named and focusable ones', () => {
    const shaped = shapeTree(tree(), { maxDepth: 10, maxNodes: 100 });
    expect(names(shaped.roots)).toEqual([['Win', ['OK', 'Cancel', ['Named group', ['label']], '', ['Items', ['one', 'two', 'three']]]]]);
    expect(shaped.count).toBe(10);
    expect(shaped).toMatchObject({ byDepth: 0, byCount: 7, filteredOut: 0 });
  });

  test('maxNodes cuts breadth-first and counts every node left out', () => {
    const shaped = shapeTree(tree(), { maxDepth: 10, maxNodes: 4 });
    expect(names(shaped.roots)).toEqual([['Win', ['OK', 'Cancel', 'Named group']]]);
    expect(shaped.count).toBe(4);
    expect(shaped.byCount).toBe(7 + 6); // unfetched + (label, focusable generic, Items and its 3 children)
  });

  test('maxDepth cuts below the given depth, counting whole subtrees', () => {
    const shaped = shapeTree(tree(), { maxDepth: 1, maxNodes: 100 });
    expect(shaped.count).toBe(6);
    expect(shaped.byDepth).toBe(4); // label, one, two, three
    expect(shapeTree(tree(), { maxDepth: 0, maxNodes: 100 }).byDepth).toBe(9);
  });

  test('text keeps matches (case-insensitive, in role, name or value) with their ancestors', () => {
    const shaped = shapeTree(tree(), { maxDepth: 10, maxNodes: 100, text: 'TWO' });
    expect(names(shaped.roots)).toEqual([['Win', [['Items', ['two']]]]]);
    expect(shaped.filteredOut).toBe(7);
    const byValue = shapeTree([node('window', 'W', [node('textbox', 'Field', [], { value: 'needle here' }), node('button', 'B')])], {
      maxDepth: 5,
      maxNodes: 5,
      text: 'needle',
    });
    expect(names(byValue.roots)).toEqual([['W', ['Field']]]);
    expect(shapeTree(tree(), { maxDepth: 10, maxNodes: 100, text: 'nothing like it' }).roots).toEqual([]);
  });

  test('walk visits in document order', () => {
    const shaped = shapeTree(tree(), { maxDepth: 10, maxNodes: 100 });
    expect([...walk(shaped.roots)].map((n) => n.name)).toEqual(['Win', 'OK', 'Cancel', 'Named group', 'label', '', 'Items', 'one', 'two', 'three']);
  });
});
