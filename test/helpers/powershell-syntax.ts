/**
 * Our PowerShell scripts parsed on any system, with the tree-sitter PowerShell grammar (its
 * WebAssembly build: nothing native): an unclosed brace, quote or here-string would otherwise
 * first show on a real Windows, as a script that does nothing. A grammar is not PowerShell's own
 * parser: it has no bare-word lists (`-AssemblyName A, B`), so our scripts quote such names.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { powershellArgs } from '../../adapter/os/powershell-session.js';
import { decodedScript } from './fake-powershell.js';

let ready: Promise<Parser> | undefined;

function parser(): Promise<Parser> {
  ready ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-powershell/tree-sitter-powershell.wasm');
    const parsed = new Parser();
    parsed.setLanguage(await Language.load(wasm));
    return parsed;
  })();
  return ready;
}

/** Where the script does not parse ("line:column text"), as PowerShell would receive it from powershellArgs (preamble included). */
export async function powershellSyntaxErrors(script: string): Promise<string[]> {
  const text = decodedScript(powershellArgs(script));
  const tree = (await parser()).parse(text);
  const errors: string[] = [];
  const walk = (node: Node): void => {
    if (node.isError || node.isMissing)
      errors.push(`${node.startPosition.row + 1}:${node.startPosition.column + 1} ${node.isMissing ? `missing ${node.type}` : node.text.slice(0, 80)}`);
    else if (node.hasError) for (const child of node.children) if (child) walk(child);
  };
  if (!tree) throw new Error('the PowerShell grammar gave no tree');
  walk(tree.rootNode);
  return errors;
}
