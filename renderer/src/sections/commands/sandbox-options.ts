/** The choices the Sandbox card offers on this OS, worded as what each one means. */
import type { NetworkSetting, SandboxSetting } from '../../../../main/config/schema';
import { defaultSandboxMode } from '../../../../main/policy/sandbox-mode';

/** The sandbox modes this OS offers (a mode it cannot run stays listed only while the file has it, so the refusal shows). */
export function sandboxOptions(platform: string, current: SandboxSetting): { value: SandboxSetting; label: string }[] {
  const auto = defaultSandboxMode(platform);
  const why = platform === 'win32' ? ', not available on Windows' : platform === 'darwin' ? ', opt-in on macOS' : '';
  const all: { value: SandboxSetting; label: string }[] = [
    { value: 'auto', label: `Automatic (${auto}${why})` },
    { value: 'private-home', label: 'Private home: workspace, and your home hidden but shared and toolchain folders' },
    { value: 'workspace', label: 'Workspace: write only in writable shared folders' },
    { value: 'read-only', label: 'Read-only: write nowhere but a temp folder' },
    { value: 'off', label: 'Off: your account’s full rights' },
  ];
  return platform === 'win32' ? all.filter((o) => o.value === 'auto' || o.value === 'off' || o.value === current) : all;
}

/** The sandbox's network choices: loopback only on macOS (or while the file has it, so the refusal shows). */
export function networkOptions(platform: string, current: NetworkSetting): { value: NetworkSetting; label: string }[] {
  const all: { value: NetworkSetting; label: string }[] = [
    { value: 'auto', label: 'Automatic (off in the sandbox)' },
    { value: 'off', label: 'Off' },
    { value: 'loopback', label: 'This computer’s loopback only' },
    { value: 'on', label: 'On: this computer’s network' },
  ];
  return platform === 'darwin' ? all : all.filter((o) => o.value !== 'loopback' || o.value === current);
}
