/** A real window with controls on Windows (the workflow's runner), for the window and UI Automation tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { powershellArgs } from '../../adapter/os/powershell-session.js';
import { windowsPowerShell } from '../../adapter/os/system-root.js';
import type { ScreenRect } from '../../adapter/contract/geometry.js';

/** A Windows Forms form at (200, 150) with a button "Press me" (writes `pressed` to MARK) and a check box "Check me". */
const FORM_SCRIPT = String.raw`Add-Type -AssemblyName System.Windows.Forms
$f = New-Object Windows.Forms.Form
$f.Text = $env:FORM_TITLE
$f.StartPosition = 'Manual'
$f.Location = New-Object Drawing.Point(200, 150)
$f.Size = New-Object Drawing.Size(500, 300)
$b = New-Object Windows.Forms.Button
$b.Text = 'Press me'
$b.Location = New-Object Drawing.Point(20, 20)
$b.Size = New-Object Drawing.Size(120, 40)
$b.Add_Click({ Set-Content -Path $env:MARK -Value 'pressed' })
$c = New-Object Windows.Forms.CheckBox
$c.Text = 'Check me'
$c.Location = New-Object Drawing.Point(20, 80)
$f.Controls.Add($b)
$f.Controls.Add($c)
[Windows.Forms.Application]::Run($f)`;

export function showForm(title: string, mark: string): ChildProcess {
  return spawn(windowsPowerShell(), powershellArgs(FORM_SCRIPT), { env: { ...process.env, FORM_TITLE: title, MARK: mark }, stdio: 'ignore' });
}

/** Within 2 px on each side (rounding of a frame between DPI scales). */
export function near(actual: ScreenRect | null | undefined, expected: ScreenRect): boolean {
  return !!actual && (['x', 'y', 'width', 'height'] as const).every((k) => Math.abs(actual[k] - expected[k]) <= 2);
}
