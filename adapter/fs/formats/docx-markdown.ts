/**
 * mammoth's HTML (a small, well-formed set of tags: headings, paragraphs, lists, tables, links,
 * emphasis, images) to Markdown-ish text. mammoth's own Markdown writer drops tables, which a
 * model reading a document needs most, so the few tags are converted here.
 */

const TOKEN = /<(\/?)([a-zA-Z0-9]+)([^>]*?)(\/?)>|([^<]+)/g;
/** Links kept as links; internal anchors (#_Toc...) become their text. */
const EXTERNAL = /^(https?|mailto):/i;
/** Block tags inside a table cell (or a list item outside a list): a space between their texts. */
const BLOCK = /^(h[1-6]|p|ul|ol|li)$/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

interface Block {
  text: string;
  /** Items of one list (counted from 1) join line by line; 0: not a list item. */
  list: number;
}

interface Table {
  rows: string[][];
  cell?: string;
}

export function htmlToMarkdown(html: string): string {
  const blocks: Block[] = [];
  const lists: Array<{ ordered: boolean; n: number }> = [];
  const tables: Table[] = [];
  const links: string[] = [];
  let line = '';
  let prefix = '';
  let listCount = 0;
  const flush = () => {
    const text = line.trim();
    if (text)
      blocks.push({ text: prefix + text.replace(/\n/g, `\n${' '.repeat(prefix.length)}`), list: prefix !== '' && !prefix.startsWith('#') ? listCount : 0 });
    line = '';
    prefix = '';
  };
  const write = (text: string) => {
    const table = tables.at(-1);
    if (table?.cell !== undefined) table.cell += text;
    else line += text;
  };
  for (const [, close, tag = '', attrs = '', selfClose, text] of html.matchAll(TOKEN)) {
    if (text !== undefined) {
      write(decode(text));
      continue;
    }
    const name = tag.toLowerCase();
    if (close) closeTag(name);
    else openTag(name, attrs, selfClose === '/');
  }
  function openTag(name: string, attrs: string, selfClose: boolean) {
    const inTable = tables.length > 0;
    const list = lists.at(-1);
    const table = tables.at(-1);
    if (/^h[1-6]$/.test(name) && !inTable) {
      flush();
      prefix = `${'#'.repeat(Number(name[1]))} `;
    } else if (name === 'p' && !inTable) {
      if (lists.length === 0) flush();
    } else if ((name === 'ul' || name === 'ol') && !inTable) {
      flush();
      if (lists.length === 0) listCount++;
      lists.push({ ordered: name === 'ol', n: 0 });
    } else if (name === 'li' && !inTable && list) {
      flush();
      list.n++;
      prefix = `${'  '.repeat(lists.length - 1)}${list.ordered ? `${list.n}.` : '-'} `;
    } else if (name === 'table') {
      if (!inTable) flush();
      tables.push({ rows: [] });
    } else if (name === 'tr') table?.rows.push([]);
    else if ((name === 'td' || name === 'th') && table) table.cell = '';
    else if (name === 'strong' || name === 'b') write('**');
    else if (name === 'em' || name === 'i') write('*');
    else if (name === 'br') write(inTable ? ' ' : '\n');
    else if (name === 'img') {
      const alt = decode(/\balt="([^"]*)"/.exec(attrs)?.[1] ?? '');
      write(alt ? `[image: ${alt}]` : '[image]');
    } else if (name === 'a' && !selfClose) {
      const href = decode(/\bhref="([^"]*)"/.exec(attrs)?.[1] ?? '');
      links.push(href);
      if (EXTERNAL.test(href)) write('[');
    } else if (BLOCK.test(name)) write(' ');
  }
  function closeTag(name: string) {
    const inTable = tables.length > 0;
    if (/^h[1-6]$/.test(name) || name === 'p' || name === 'li') {
      if (!inTable && (name !== 'p' || lists.length === 0)) flush();
    } else if (name === 'ul' || name === 'ol') {
      if (!inTable) {
        flush();
        lists.pop();
      }
    } else if (name === 'td' || name === 'th') {
      const table = tables.at(-1);
      if (table?.cell !== undefined) table.rows.at(-1)?.push(table.cell.trim());
      if (table) delete table.cell;
    } else if (name === 'table') {
      const table = tables.pop();
      if (table && tables.length > 0) write(` ${table.rows.map((row) => row.join(' ')).join(' ')} `);
      else if (table) blocks.push({ text: markdownTable(table.rows), list: 0 });
    } else if (name === 'strong' || name === 'b') write('**');
    else if (name === 'em' || name === 'i') write('*');
    else if (name === 'a') {
      const href = links.pop() ?? '';
      if (EXTERNAL.test(href)) write(`](${href})`);
    }
  }
  flush();
  return blocks.map((block, i) => (i === 0 ? '' : block.list && blocks[i - 1]?.list === block.list ? '\n' : '\n\n') + block.text).join('');
}

function markdownTable(rows: string[][]): string {
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => (cells[i] ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')).join(' | ')} |`;
  const [head = [], ...body] = rows;
  return [line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n');
}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}
