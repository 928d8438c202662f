/**
 * `chatgpt-mcp gateway add [--dry-run]`: an entry pasted from another MCP host, read from stdin
 * (main/config/pasted-entry.ts), added to the config file as it is on disk (no CHATGPT_MCP_*
 * variable or flag applied), all of it or nothing, starting nothing. Its secret references never
 * name a secret stored already, or one another entry refers to. `--dry-run` checks it as the real
 * add would and writes nothing.
 */
import { ConfigError, configPathFor, readRawConfig, type CliOverrides } from '../config/load.js';
import { MAX_PASTE_CHARS, parseAvoidingStored, referencedSecrets, type Pasted } from '../config/pasted-entry.js';
import { isObject } from '../config/pasted-servers.js';
import { ConfigReadOnlyError, ConfigValidationError, saveConfig, validateConfig } from '../config/save.js';
import { gatewaySecrets, storedNames } from '../gateway/secrets.js';
import { stateDir } from '../host/places.js';
import { EXIT, printJson, readStdin, say, StdinTooLong, visible } from './io.js';

export async function addPasted(cli: CliOverrides, dryRun: boolean): Promise<number> {
  if (process.stdin.isTTY) say('Paste the entry from the other host, then press Ctrl-D (Ctrl-Z and Enter on Windows):');
  let text: string;
  try {
    // Four bytes a character at most: a paste the parser takes is never cut.
    text = await readStdin(4 * MAX_PASTE_CHARS);
  } catch (error) {
    if (error instanceof StdinTooLong) return nothingAdded(`${error.message} (an entry is at most ${MAX_PASTE_CHARS} characters)`);
    throw error;
  }
  const file = configPathFor({ cli });
  let raw;
  try {
    raw = readRawConfig(file);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return nothingAdded(error.message);
  }
  const gateway = isObject(raw.gateway) ? raw.gateway : {};
  const servers: unknown[] = Array.isArray(gateway.servers) ? gateway.servers : [];
  // Names the config's entries refer to are taken as stored ones are: one not stored yet will be, for that entry.
  const referenced = referencedSecrets(servers);
  let pasted: Pasted;
  try {
    pasted = await parseAvoidingStored(text, async (names) => [...names.filter((name) => referenced.has(name)), ...(await storedAmong(names))]);
  } catch (error) {
    return nothingAdded((error as Error).message);
  }
  const taken = new Set(servers.map((entry) => (isObject(entry) ? String(entry.name).toLowerCase() : '')));
  const clash = pasted.entries.find((entry) => taken.has(entry.name.toLowerCase()));
  if (clash) return nothingAdded(`gateway.servers has a server named "${clash.name}" already (remove it first, or change its name in what you paste)`);
  const next = { ...raw, gateway: { ...gateway, servers: [...servers, ...pasted.entries] } };
  for (const note of pasted.notes) say(`note: ${visible(note)}`);
  const names = pasted.entries.map((entry) => entry.name).join(', ');
  if (dryRun) {
    const checked = validateConfig(next);
    if (!checked.ok) return nothingAdded(new ConfigValidationError(checked.issues).message.replace('nothing was written', 'it would not be added'));
    say(`would add ${names} to ${file} (--dry-run: nothing written)`);
    return printJson(pasted.entries);
  }
  try {
    await saveConfig(file, next);
  } catch (error) {
    if (error instanceof ConfigValidationError || error instanceof ConfigReadOnlyError) return nothingAdded(error.message);
    const { code, message } = error as NodeJS.ErrnoException;
    return nothingAdded(`cannot write ${file} (${code ?? message})`);
  }
  say(
    `added ${names} to ${file} (rewritten with every setting in effect, owner-only); nothing started: "chatgpt-mcp gateway test ${pasted.entries[0]!.name}" starts it once here, and a running server takes it when restarted`,
  );
  return printJson(pasted.entries);
}

/** Which of these secret names hold a value already (their values are never shown). */
async function storedAmong(names: string[]): Promise<string[]> {
  return names.length === 0 ? [] : storedNames(await gatewaySecrets(stateDir()), names);
}

function nothingAdded(why: string): number {
  say(`nothing added: ${visible(why, true)}`);
  return EXIT.config;
}
