/**
 * The C# inside our Windows PowerShell scripts (what they give Add-Type), compiled on Linux with
 * Mono's mcs the way Windows PowerShell 5.1 compiles it: C# 5, against mscorlib and System only.
 * This catches here what would otherwise first fail on a real Windows: a typo, a C# 6 feature, a
 * type from an assembly Add-Type does not reference. Mono also runs what needs no Windows (pure
 * helpers, and the sizes its marshaller gives the structures handed to Win32: the layout rules
 * are the same on every 64-bit system), and, with a dllmap, the script's Win32 calls against a
 * stand-in library written in C (`mapDlls`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Each C# compilation unit a PowerShell script hands Add-Type, as Add-Type would see it. */
export function addTypeSources(script: string): string[] {
  const sources: string[] = [];
  for (const match of script.matchAll(/-TypeDefinition @'\r?\n([\s\S]*?)\r?\n'@/g)) sources.push(match[1]!);
  // -MemberDefinition: members Add-Type wraps in a class of the given namespace and name, with these usings.
  for (const match of script.matchAll(/-Namespace (\w+) -Name (\w+) -MemberDefinition '((?:[^']|'')*)'/g)) {
    const members = match[3]!.replace(/''/g, "'");
    sources.push(`using System;\nusing System.Runtime.InteropServices;\nnamespace ${match[1]} { public class ${match[2]} {\n${members}\n} }`);
  }
  return sources;
}

/** Compiles C# 5 sources (in `dir`) into `name`.dll, or an .exe when one has a Main; throws with the compiler's words. */
export function compileCSharp(dir: string, name: string, sources: readonly string[], references: readonly string[] = []): string {
  const files = sources.map((source, i) => {
    const file = path.join(dir, `${name}-${i}.cs`);
    fs.writeFileSync(file, source);
    return file;
  });
  const exe = sources.some((s) => /static void Main\(/.test(s));
  const out = path.join(dir, `${name}.${exe ? 'exe' : 'dll'}`);
  const args = [
    '-noconfig',
    '-langversion:5',
    `-target:${exe ? 'exe' : 'library'}`,
    '-r:System.dll',
    ...references.map((r) => `-r:${r}`),
    `-out:${out}`,
    ...files,
  ];
  try {
    execFileSync('mcs', args, { stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`mcs refused ${name}:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
  return out;
}

/**
 * Builds `source` (C) into a shared library and sends `exe`'s DllImports of `dlls` (user32.dll...)
 * to it, through the .exe's Mono config: the library's path.
 */
export function mapDlls(exe: string, dlls: readonly string[], source: string): string {
  const library = path.join(path.dirname(exe), 'libstandin.so');
  execFileSync('gcc', ['-shared', '-fPIC', '-std=c11', '-Wall', '-Werror', '-o', library, source], { stdio: 'pipe' });
  const maps = dlls.map((dll) => `  <dllmap dll="${dll}" target="${library}" />`).join('\n');
  fs.writeFileSync(`${exe}.config`, `<configuration>\n${maps}\n</configuration>\n`);
  return library;
}

/** Runs a compiled .exe under Mono (its dlls beside it): its stdout. */
export function runMono(exe: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync('mono', [exe, ...args], { cwd: path.dirname(exe), env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
