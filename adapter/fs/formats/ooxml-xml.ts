/**
 * OOXML parts as ordered XML trees (fast-xml-parser, loaded with the spreadsheet and slide
 * readers): tags keep their prefixes, attributes their qualified names (a slide id has both
 * `id` and `r:id`), text is decoded (character references included) and never trimmed. A part
 * is validated first: the parser itself accepts cut XML (an entry that lied about its size),
 * which would be a partial answer given as whole.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One node of an ordered tree: `{ tag: children, ':@': attributes }` or `{ '#text': text }`. */
export type XNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});

/** `name`: the part, for the error when it is not well-formed XML. */
export function parseXml(text: string, name: string): XNode[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`its part ${name} is not well-formed XML (${valid.err.msg.replace(/\s+/g, ' ')} at line ${valid.err.line})`);
  return parser.parse(text) as XNode[];
}

/** The tag without its namespace prefix ("a:t" -> "t"); "#text" for text. */
export function localName(node: XNode): string {
  const tag = Object.keys(node).find((key) => key !== ':@') ?? '';
  return tag.slice(tag.indexOf(':') + 1);
}

export function children(node: XNode): XNode[] {
  const tag = Object.keys(node).find((key) => key !== ':@');
  const value = tag === undefined ? undefined : node[tag];
  return Array.isArray(value) ? (value as XNode[]) : [];
}

export function attribute(node: XNode, name: string): string | undefined {
  const value = (node[':@'] as Record<string, unknown> | undefined)?.[name];
  return value === undefined ? undefined : String(value);
}

/** Every descendant (document order) whose local name is `name`, not looking inside matches. */
export function findAll(nodes: readonly XNode[], name: string, found: XNode[] = []): XNode[] {
  for (const node of nodes) {
    if (localName(node) === name) found.push(node);
    else findAll(children(node), name, found);
  }
  return found;
}

/** The text of a node and its descendants. */
export function textOf(node: XNode): string {
  if ('#text' in node) return String(node['#text']);
  return children(node).map(textOf).join('');
}

/** Relationship id -> target path (resolved against `base`, the part's folder) from a .rels part. */
export function relationships(xml: string | undefined, name: string, base: string): Map<string, string> {
  const map = new Map<string, string>();
  if (xml === undefined) return map;
  for (const rel of findAll(parseXml(xml, name), 'Relationship')) {
    const id = attribute(rel, 'Id');
    const target = attribute(rel, 'Target');
    if (id && target) map.set(id, target.startsWith('/') ? target.slice(1) : normalise(`${base}/${target}`));
  }
  return map;
}

function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}
