/**
 * macOS: what nut-js's clipboard cannot do, images (and the types on offer), through
 * NSPasteboard in JXA. Reading prefers the PNG an app put there, else converts its TIFF (what
 * screenshots and most Cocoa apps put); writing puts the PNG on. The image goes through a file
 * of our own (an argument list is limited to about a megabyte). Text is written by nut-js.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClipboardContent, ClipboardReadOptions } from '../../contract/desktop.js';
import { adapterError } from '../../contract/errors.js';
import { fromScriptClipboard, type ScriptClipboard } from '../clipboard-content.js';
import { runJxa } from './jxa.js';

const TIMEOUT_MS = 20_000;

export const PASTEBOARD_SCRIPT = String.raw`
ObjC.import('AppKit');
function run(argv) {
  var req = JSON.parse(argv[0]);
  var pb = $.NSPasteboard.generalPasteboard;
  if (req.file) {
    var data = $.NSData.dataWithContentsOfFile(req.file);
    if (data.isNil()) return answer({ error: 'the image could not be read back' });
    pb.clearContents;
    if (!pb.setDataForType(data, $.NSPasteboardTypePNG)) return answer({ error: 'the pasteboard refused the image' });
    return answer({ ok: true });
  }
  var out = { formats: ObjC.deepUnwrap(pb.types) || [] };
  var text = pb.stringForType($.NSPasteboardTypeString);
  if (!text.isNil()) out.text64 = text.dataUsingEncoding($.NSUTF8StringEncoding).base64EncodedStringWithOptions(0).js;
  if (req.prefer === 'image' || out.text64 === undefined) {
    var png = pb.dataForType($.NSPasteboardTypePNG);
    if (png.isNil()) {
      var tiff = pb.dataForType($.NSPasteboardTypeTIFF);
      if (!tiff.isNil()) png = $.NSBitmapImageRep.imageRepWithData(tiff).representationUsingTypeProperties($.NSBitmapImageFileTypePNG, $({}));
    }
    if (png && !png.isNil()) out.png64 = png.base64EncodedStringWithOptions(0).js;
  }
  return answer(out);
}`;

export async function macClipboardRead(options: ClipboardReadOptions, operation: string, run: typeof runJxa = runJxa): Promise<ClipboardContent> {
  const out = JSON.parse(await run(PASTEBOARD_SCRIPT, { prefer: options.prefer }, operation, 'reading the clipboard', TIMEOUT_MS)) as ScriptClipboard;
  return fromScriptClipboard(out, options, operation);
}

export async function macClipboardWriteImage(png: Buffer, operation: string, run: typeof runJxa = runJxa): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-clipboard-'));
  const file = path.join(dir, 'image.png');
  try {
    fs.writeFileSync(file, png, { mode: 0o600 });
    const out = JSON.parse(await run(PASTEBOARD_SCRIPT, { file }, operation, 'writing the clipboard', TIMEOUT_MS)) as { error?: string };
    if (out.error) throw adapterError('OS_ERROR', operation, `writing the clipboard failed: ${out.error}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
