import { CLIENT_INFO_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { BEARER_CLIENT } from '../../main/mcp/http.js';
import { callerName, callerOf } from '../../main/mcp/caller.js';

const none = () => undefined;

describe('callerOf', () => {
  it('names an OAuth client by id and name, never its token', () => {
    const caller = callerOf({ token: 'at-secret', clientId: 'c-123', scopes: [], extra: { clientName: 'ChatGPT' } }, undefined, none);
    expect(caller).toEqual({ kind: 'oauth', id: 'c-123', name: 'ChatGPT' });
    expect(JSON.stringify(caller)).not.toContain('at-secret');
    expect(callerName(caller)).toBe('ChatGPT');
  });

  it('says "bearer token" for the static token', () => {
    expect(callerOf(BEARER_CLIENT, undefined, none)).toEqual({ kind: 'token' });
    expect(callerName({ kind: 'token' })).toBe('bearer token');
  });

  it('takes the host from the request envelope, else from the connection, else none', () => {
    const envelope = { [CLIENT_INFO_META_KEY]: { name: 'Claude Code', version: '2.1' } };
    expect(callerOf(undefined, envelope, () => ({ name: 'other' }))).toEqual({ kind: 'host', name: 'Claude Code', version: '2.1' });
    expect(callerOf(undefined, undefined, () => ({ name: 'Cursor' }))).toEqual({ kind: 'host', name: 'Cursor' });
    expect(callerOf(undefined, undefined, none)).toEqual({ kind: 'host', name: null });
    expect(callerName({ kind: 'host', name: null })).toBeNull();
  });
});
