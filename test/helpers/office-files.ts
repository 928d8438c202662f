/**
 * Real Office files for tests, built the way Word, Excel and PowerPoint store them: OOXML parts
 * zipped (fflate). Only the parts each reader needs, with the namespaces the formats use.
 */
import { zipSync, type Zippable } from 'fflate';

const enc = (text: string) => new TextEncoder().encode(text);
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

function zip(parts: Record<string, string>, contentTypes: string): Uint8Array {
  const files: Zippable = { '[Content_Types].xml': enc(contentTypes) };
  for (const [name, text] of Object.entries(parts)) files[name] = enc(text);
  return zipSync(files);
}

const types = (main: string, mainType: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
  `<Override PartName="/${main}" ContentType="${mainType}"/>${extra}</Types>`;

const rootRels = (target: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${target}"/></Relationships>`;

/** A Word block: a heading, a paragraph, a bulleted or numbered item, a table (first row a header), or a picture with alt text. */
export type DocxBlock =
  { heading: 1 | 2 | 3; text: string } | { text: string } | { bullet: string } | { numbered: string } | { table: string[][] } | { picture: string };

const PICTURE = (alt: string) =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="9525" cy="9525"/><wp:docPr id="1" name="Picture" descr="${esc(alt)}"/>` +
  `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="Picture" descr="${esc(alt)}"/><pic:cNvPicPr/></pic:nvPicPr>` +
  `<pic:blipFill><a:blip r:embed="rIdPic"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
const DRAWING_NS =
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

export function docxFile(blocks: DocxBlock[]): Uint8Array {
  const run = (text: string) => `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
  const para = (text: string, style?: string, num?: number) =>
    `<w:p>${style || num ? `<w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}${num ? `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${num}"/></w:numPr>` : ''}</w:pPr>` : ''}${run(text)}</w:p>`;
  const body = blocks
    .map((b) => {
      if ('heading' in b) return para(b.text, `Heading${b.heading}`);
      if ('bullet' in b) return para(b.bullet, undefined, 1);
      if ('numbered' in b) return para(b.numbered, undefined, 2);
      if ('picture' in b) return PICTURE(b.picture);
      if ('table' in b) return `<w:tbl>${b.table.map((row) => `<w:tr>${row.map((cell) => `<w:tc>${para(cell)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
      return para(b.text);
    })
    .join('');
  const level = (format: string) => `<w:lvl w:ilvl="0"><w:numFmt w:val="${format}"/><w:lvlText w:val="${format === 'bullet' ? '•' : '%1.'}"/></w:lvl>`;
  const numbering =
    `<w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0">${level('bullet')}</w:abstractNum><w:abstractNum w:abstractNumId="1">${level('decimal')}</w:abstractNum>` +
    `<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`;
  const style = (n: number) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/></w:style>`;
  return zip(
    {
      '_rels/.rels': rootRels('word/document.xml'),
      'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" ${DRAWING_NS}><w:body>${body}</w:body></w:document>`,
      'word/_rels/document.xml.rels':
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/numbering" Target="numbering.xml"/>` +
        `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rIdPic" Type="${REL}/image" Target="media/image1.png"/></Relationships>`,
      'word/media/image1.png': 'not read: the reader names pictures by their alt text',
      'word/numbering.xml': numbering,
      'word/styles.xml': `<w:styles xmlns:w="${W}">${style(1)}${style(2)}${style(3)}</w:styles>`,
    },
    types('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
  );
}

const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** A number stored under a style (an index into `styles`), as Excel stores a date. */
export type StyledNumber = { serial: number; style: number };

/**
 * Sheets by name, rows of values from A1 (strings shared, numbers as numbers, booleans as
 * TRUE/FALSE). `styles`: the workbook's cell formats in order, each a built-in number format id or
 * a format code of its own; `date1904`: the workbook's 1904 date system.
 */
export function xlsxFile(
  sheets: Record<string, Array<Array<string | number | boolean | StyledNumber | null>>>,
  options: { styles?: Array<number | string>; date1904?: boolean } = {},
): Uint8Array {
  const strings: string[] = [];
  const parts: Record<string, string> = { '_rels/.rels': rootRels('xl/workbook.xml') };
  const names = Object.keys(sheets);
  names.forEach((name, i) => {
    const rows = sheets[name] ?? [];
    const xmlRows = rows
      .map((row, r) => {
        const cells = row
          .map((value, c) => {
            const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
            if (value === null) return '';
            if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
            if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
            if (typeof value === 'object') return `<c r="${ref}" s="${value.style}"><v>${value.serial}</v></c>`;
            strings.push(value);
            return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
          })
          .join('');
        return `<row r="${r + 1}">${cells}</row>`;
      })
      .join('');
    const width = Math.max(1, ...rows.map((row) => row.length));
    const dim = rows.length ? `<dimension ref="A1:${String.fromCharCode(64 + width)}${rows.length}"/>` : '';
    parts[`xl/worksheets/sheet${i + 1}.xml`] =
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${S}">${dim}<sheetData>${xmlRows}</sheetData></worksheet>`;
  });
  parts['xl/workbook.xml'] =
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${S}" xmlns:r="${REL}">${options.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets>` +
    names.map((name, i) => `<sheet name="${esc(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
    `</sheets></workbook>`;
  parts['xl/_rels/workbook.xml.rels'] =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}">` +
    names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
    `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
  parts['xl/sharedStrings.xml'] =
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${S}">${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`;
  if (options.styles) parts['xl/styles.xml'] = stylesXml(options.styles);
  return zip(parts, types('xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'));
}

/** styles.xml with one cellXfs entry per style: a built-in id as it is, a code as a numFmt of its own (from 164, as Excel numbers them). */
function stylesXml(styles: Array<number | string>): string {
  const custom = styles.flatMap((style, i) => (typeof style === 'string' ? [`<numFmt numFmtId="${164 + i}" formatCode="${esc(style)}"/>`] : []));
  const xfs = styles.map((style, i) => `<xf numFmtId="${typeof style === 'string' ? 164 + i : style}" fontId="0" fillId="0" borderId="0" xfId="0"/>`);
  return (
    `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${S}">` +
    `${custom.length ? `<numFmts count="${custom.length}">${custom.join('')}</numFmts>` : ''}` +
    `<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs></styleSheet>`
  );
}

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';

/**
 * Slides (each a list of paragraphs), stored in reverse part order (slide1.xml is the last
 * slide), as after slides were reordered in PowerPoint: the order is presentation.xml's.
 */
export function pptxFile(slides: string[][]): Uint8Array {
  const parts: Record<string, string> = { '_rels/.rels': rootRels('ppt/presentation.xml') };
  const partOf = (i: number) => `slides/slide${slides.length - i}.xml`;
  slides.forEach((paragraphs, i) => {
    const body = paragraphs.map((p) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(p)}</a:t></a:r></a:p>`).join('');
    parts[`ppt/${partOf(i)}`] =
      `<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:a="${A}" xmlns:p="${P}" xmlns:r="${REL}"><p:cSld><p:spTree><p:sp><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  });
  parts['ppt/presentation.xml'] =
    `<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:a="${A}" xmlns:p="${P}" xmlns:r="${REL}"><p:sldIdLst>` +
    slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('') +
    `</p:sldIdLst></p:presentation>`;
  parts['ppt/_rels/presentation.xml.rels'] =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}">` +
    slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/slide" Target="${partOf(i)}"/>`).join('') +
    `</Relationships>`;
  return zip(parts, types('ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'));
}

/**
 * A zip bomb disguised as a DOCX: word/document.xml declares (truthfully) `inflated` bytes of
 * zeros, deflated to about a thousandth of that.
 */
export function bombDocx(inflated: number): Uint8Array {
  const parts: Zippable = {
    '[Content_Types].xml': enc(types('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml')),
    '_rels/.rels': enc(rootRels('word/document.xml')),
    'word/document.xml': [new Uint8Array(inflated), { level: 9 }],
  };
  return zipSync(parts);
}
