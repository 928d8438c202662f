/**
 * The zod schema of every IPC payload (the argument list of each channel) and the one
 * validation function the shell runs before any handler. Anything that does not match is
 * refused: unknown channels, extra arguments, wrong types, oversized text.
 */
import * as z from 'zod';
import { INVOKE, SEND, type InvokeChannel, type SendChannel } from './ipc-channels.js';
import { KILL_SIGNALS } from './bridge-api.js';
import { LINKS } from '../tunnel/status.js';
import { SECRET_REF } from '../config/sections/gateway.js';
import { MAX_SECRET_CHARS } from '../gateway/secrets.js';

const none = z.tuple([]);

export const invokePayloads = {
  [INVOKE.load]: none,
  // The config object itself is validated by the config schema in save.ts, which reports
  // issues per field; here it only has to be a plain JSON object of bounded size.
  [INVOKE.save]: z.tuple([z.record(z.string(), z.unknown()).refine(fitsInBytes(1024 * 1024), 'config is larger than 1 MiB')]),
  [INVOKE.tokenInUse]: none,
  [INVOKE.replaceToken]: none,
  [INVOKE.folderKinds]: z.tuple([z.array(z.string().min(1).max(4096)).max(200)]),
  [INVOKE.copyText]: z.tuple([z.string().min(1).max(4096)]),
  [INVOKE.pickFolder]: none,
  [INVOKE.testConnection]: none,
  [INVOKE.restartServer]: none,
  [INVOKE.listActivity]: none,
  [INVOKE.searchAudit]: z.tuple([z.string().max(500)]),
  [INVOKE.listProcesses]: z.union([none, z.tuple([z.string().max(200).optional()])]),
  [INVOKE.killProcess]: z.tuple([
    z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1),
    z.enum(KILL_SIGNALS),
  ]),
  [INVOKE.listConnections]: none,
  // The code the authorize page shows (checked again by owner-actions), a client id.
  [INVOKE.approveConnection]: z.tuple([z.string().min(1).max(20)]),
  [INVOKE.denyConnection]: z.tuple([z.string().min(1).max(20)]),
  [INVOKE.revokeClient]: z.tuple([z.string().min(1).max(2048)]),
  [INVOKE.tunnelStatus]: none,
  [INVOKE.tunnelConnect]: none,
  [INVOKE.tunnelDisconnect]: none,
  [INVOKE.tunnelSetKey]: z.tuple([z.string().min(1).max(1024)]),
  [INVOKE.tunnelForgetKey]: none,
  [INVOKE.tunnelLookUp]: z.union([none, z.tuple([z.string().min(1).max(4096).optional()])]),
  [INVOKE.tunnelPickClient]: none,
  [INVOKE.tunnelDownload]: none,
  [INVOKE.openLink]: z.tuple([z.enum(Object.keys(LINKS) as [keyof typeof LINKS, ...(keyof typeof LINKS)[]])]),
  [INVOKE.gatewayStatus]: none,
  [INVOKE.gatewaySetSecret]: z.tuple([z.string().regex(SECRET_REF), z.string().min(1).max(MAX_SECRET_CHARS)]),
  // Secret names a pasted entry would refer to: which hold a value already.
  [INVOKE.gatewayStoredSecrets]: z.tuple([z.array(z.string().regex(SECRET_REF)).max(1024)]),
  // An upstream's name (gateway.servers), one held item of it or all (null), and the fingerprints of what the window showed.
  [INVOKE.gatewayAccept]: z.tuple([z.string().min(1).max(40), z.string().min(1).max(200).nullable(), z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(4096)]),
  [INVOKE.listChanges]: none,
  // A change group id as the journal makes them (checked again there).
  [INVOKE.showChanges]: z.tuple([z.string().regex(/^\d{8}-\d{9}-[0-9a-f]{4}$/)]),
  [INVOKE.undoChanges]: z.tuple([z.string().regex(/^\d{8}-\d{9}-[0-9a-f]{4}$/)]),
  [INVOKE.detectChecks]: z.tuple([z.string().min(1).max(4096)]),
} satisfies Record<InvokeChannel, z.ZodType>;

export const sendPayloads = {
  [SEND.setDirty]: z.tuple([z.boolean()]),
} satisfies Record<SendChannel, z.ZodType>;

export type InvokeArgs<C extends InvokeChannel> = z.output<(typeof invokePayloads)[C]>;
export type SendArgs<C extends SendChannel> = z.output<(typeof sendPayloads)[C]>;

export class IpcPayloadError extends Error {
  override name = 'IpcPayloadError';
}

export function parseInvokeArgs<C extends InvokeChannel>(channel: C, args: unknown[]): InvokeArgs<C> {
  return parseWith(invokePayloads[channel], channel, args) as InvokeArgs<C>;
}

export function parseSendArgs<C extends SendChannel>(channel: C, args: unknown[]): SendArgs<C> {
  return parseWith(sendPayloads[channel], channel, args) as SendArgs<C>;
}

function parseWith(schema: z.ZodType | undefined, channel: string, args: unknown[]): unknown {
  if (!schema) throw new IpcPayloadError(`Unknown IPC channel "${channel}"`);
  const result = schema.safeParse(args);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new IpcPayloadError(`Invalid payload for ${channel}: ${first ? `${first.path.join('.') || 'arguments'}: ${first.message}` : 'rejected'}`);
  }
  return result.data;
}

function fitsInBytes(max: number) {
  return (value: unknown) => {
    try {
      return JSON.stringify(value).length <= max;
    } catch {
      return false;
    }
  };
}
