/**
 * The Windows clipboard's images (win32-clipboard.ts). Here: the Node side against a stand-in
 * for PowerShell at SystemRoot's place. On Windows (the workflow's runner): a PNG put on the real
 * clipboard reads back byte for byte, and text another program copied reads as text.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIPBOARD_SCRIPT, win32ClipboardRead, win32ClipboardWriteImage } from '../../../../adapter/desktop/win32/win32-clipboard.js';
import { windowsPowerShell } from '../../../../adapter/os/system-root.js';
import { powershellSyntaxErrors } from '../../../helpers/powershell-syntax.js';
import { useFakePowerShell } from '../../../helpers/fake-powershell.js';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

it('its script parses as PowerShell', async () => {
  expect(await powershellSyntaxErrors(CLIPBOARD_SCRIPT)).toEqual([]);
});

describe.skipIf(process.platform === 'win32')('the Windows clipboard, against a stand-in for PowerShell', () => {
  // records its arguments, the request and its stdin; answers as the script would
  const folder = useFakePowerShell(
    'win32-clipboard-',
    (dir) => `echo "$@" > '${dir}/args'
echo "$CHATGPT_MCP_CLIPBOARD" > '${dir}/op'
env > '${dir}/env'
cat > '${dir}/stdin'
case "$CHATGPT_MCP_CLIPBOARD" in
  write-image) echo '{"ok":true}' ;;
  read-image) echo '{"formats":["PNG","Bitmap"],"text64":"${Buffer.from('tëxt').toString('base64')}","png64":"${png.toString('base64')}"}' ;;
  *) echo 'Exception calling "GetDataObject": OpenClipboard failed' >&2; exit 1 ;;
esac
`,
  );
  const recorded = (name: string) => fs.readFileSync(path.join(folder(), name), 'utf8').trim();

  it('writes an image as base64 on stdin, in a single-threaded apartment', async () => {
    await win32ClipboardWriteImage(png, 'clipboard.write');
    expect(recorded('op')).toBe('write-image');
    expect(Buffer.from(recorded('stdin'), 'base64')).toEqual(png);
    expect(recorded('args').split(' ').slice(0, 2)).toEqual(['-STA', '-NoLogo']);
    // the request and the short helper environment, never the server's own (it may hold its token)
    expect(recorded('env')).toContain('CHATGPT_MCP_CLIPBOARD=write-image');
    expect(recorded('env')).not.toContain('planted');
  });

  it('reads the preferred kind, and passes a failure on with what PowerShell said', async () => {
    expect(await win32ClipboardRead({ prefer: 'image', maxBytes: 1000 }, 'clipboard.read')).toMatchObject({
      kind: 'image',
      bytes: png.length,
      formats: ['PNG', 'Bitmap'],
    });
    await expect(win32ClipboardRead({ prefer: 'text', maxBytes: 1000 }, 'clipboard.read')).rejects.toMatchObject({
      code: 'OS_ERROR',
      message: 'the clipboard failed: Exception calling "GetDataObject": OpenClipboard failed',
    });
  });
});

describe.runIf(process.platform === 'win32')('the Windows clipboard on Windows', () => {
  it('puts a PNG on the real clipboard and reads the same bytes back; text copied by another program reads as text', { timeout: 60_000 }, async () => {
    const sharp = (await import('sharp')).default;
    const image = await sharp({ create: { width: 5, height: 3, channels: 4, background: { r: 9, g: 8, b: 7, alpha: 0.5 } } })
      .png()
      .toBuffer();
    await win32ClipboardWriteImage(image, 'clipboard.write');
    const read = await win32ClipboardRead({ prefer: 'image', maxBytes: 1 << 20 }, 'clipboard.read');
    expect(read).toMatchObject({ kind: 'image', formats: expect.arrayContaining(['PNG']) });
    expect(Buffer.compare(read.image!.data, image)).toBe(0);

    execFileSync(windowsPowerShell(), ['-NoProfile', '-STA', '-Command', "Set-Clipboard -Value 'copied: caf\u00e9 \u65e5\u672c'"]);
    expect(await win32ClipboardRead({ prefer: 'text', maxBytes: 1000 }, 'clipboard.read')).toMatchObject({ kind: 'text', text: 'copied: café 日本' });
  });
});
