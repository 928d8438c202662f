import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../adapter/fs/formats/docx-markdown.js';

describe('htmlToMarkdown', () => {
  it('turns mammoth’s headings, paragraphs, emphasis and links into Markdown', () => {
    const html =
      '<h1>Plan &amp; budget</h1><p>Read <strong>this</strong> and <em>that</em> at <a href="https://example.org/x">the site</a>.</p><p><a href="#_Toc1">Back</a></p>';
    expect(htmlToMarkdown(html)).toBe('# Plan & budget\n\nRead **this** and *that* at [the site](https://example.org/x).\n\nBack');
  });

  it('keeps nested lists indented and numbered', () => {
    const html = '<ol><li>One<ul><li>a</li><li>b</li></ul></li><li>Two</li></ol><p>After</p>';
    expect(htmlToMarkdown(html)).toBe('1. One\n  - a\n  - b\n2. Two\n\nAfter');
  });

  it('writes a table with its first row as the header, escaping pipes and flattening a nested table', () => {
    const html =
      '<table><tr><td><p>Name</p></td><td><p>Note</p></td></tr><tr><td><p>a|b</p></td><td><p>line<br />two</p><table><tr><td>in</td></tr></table></td></tr></table>';
    expect(htmlToMarkdown(html)).toBe('| Name | Note |\n| --- | --- |\n| a\\|b | line two in |');
  });

  it('names images by their alt text, and decodes character references', () => {
    expect(htmlToMarkdown('<p><img src="" alt="A chart" /> &#233;t&#xE9; &lt;x&gt;</p><p><img src="" /></p>')).toBe('[image: A chart] été <x>\n\n[image]');
  });
});
