/**
 * Windows: what nut-js's clipboard cannot do, images (and the formats on offer), through
 * Windows Forms in one PowerShell run per call (clipboard calls are rare; a session would keep
 * a process for them). An image goes on as PNG (apps that know it keep transparency) and as a
 * bitmap (for the others); reading prefers the PNG an app put there, else converts the bitmap.
 * Text is written by nut-js, which is faster.
 */
import type { ClipboardContent, ClipboardReadOptions } from '../../contract/desktop.js';
import { fromScriptClipboard, type ScriptClipboard } from '../clipboard-content.js';
import { runPowerShell } from '../../os/powershell-session.js';

const TIMEOUT_MS = 20_000;

/** CHATGPT_MCP_CLIPBOARD: read-text, read-image, or write-image (the PNG as base64 on stdin). */
export const CLIPBOARD_SCRIPT = String.raw`$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName 'System.Windows.Forms', 'System.Drawing'
$op = $env:CHATGPT_MCP_CLIPBOARD
if ($op -eq 'write-image') {
  $bytes = [Convert]::FromBase64String([Console]::In.ReadToEnd())
  $stream = New-Object IO.MemoryStream(,$bytes)
  $data = New-Object Windows.Forms.DataObject
  $data.SetData('PNG', $false, $stream)
  $data.SetImage([Drawing.Image]::FromStream($stream))
  # copy: the content stays after this process ends; retried while another program holds the clipboard open
  [Windows.Forms.Clipboard]::SetDataObject($data, $true, 10, 100)
  '{"ok":true}'
  return
}
$o = [Windows.Forms.Clipboard]::GetDataObject()
$out = @{ formats = @() }
if ($o) { $out.formats = @($o.GetFormats()) }
if ([Windows.Forms.Clipboard]::ContainsText()) { $out.text64 = [Convert]::ToBase64String([Text.Encoding]::UTF8.GetBytes([Windows.Forms.Clipboard]::GetText())) }
if ($op -eq 'read-image' -or -not $out.text64) {
  $png = $null
  if ($o -and $o.GetDataPresent('PNG')) { $s = $o.GetData('PNG'); if ($s -is [IO.MemoryStream]) { $png = $s.ToArray() } }
  if (-not $png -and [Windows.Forms.Clipboard]::ContainsImage()) {
    $ms = New-Object IO.MemoryStream
    [Windows.Forms.Clipboard]::GetImage().Save($ms, [Drawing.Imaging.ImageFormat]::Png)
    $png = $ms.ToArray()
  }
  if ($png) { $out.png64 = [Convert]::ToBase64String($png) }
}
ConvertTo-AsciiJson $out
`;

function run(op: string, input: string | undefined, operation: string): Promise<string> {
  // Windows Forms' clipboard needs a single-threaded apartment (Windows PowerShell's default; said anyway)
  return runPowerShell(CLIPBOARD_SCRIPT, { flags: ['-STA'], input, vars: { CHATGPT_MCP_CLIPBOARD: op }, timeoutMs: TIMEOUT_MS }, operation, 'the clipboard');
}

export async function win32ClipboardRead(options: ClipboardReadOptions, operation: string): Promise<ClipboardContent> {
  const out = JSON.parse(await run(options.prefer === 'image' ? 'read-image' : 'read-text', undefined, operation)) as ScriptClipboard;
  return fromScriptClipboard(out, options, operation);
}

export async function win32ClipboardWriteImage(png: Buffer, operation: string): Promise<void> {
  await run('write-image', png.toString('base64'), operation);
}
