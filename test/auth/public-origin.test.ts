import { describe, expect, it } from 'vitest';
import { publicOrigin } from '../../main/auth/public-origin.js';

describe('publicOrigin', () => {
  const local = { host: '127.0.0.1', allowedHosts: [] as string[], publicUrl: '' };
  it('takes server.publicUrl first', () => {
    expect(publicOrigin({ ...local, publicUrl: 'https://calm-river.trycloudflare.com', allowedHosts: ['other.example'] }, 3210)).toEqual({
      origin: 'https://calm-river.trycloudflare.com',
    });
  });
  it('uses the one public allowedHosts entry over https', () => {
    expect(publicOrigin({ ...local, allowedHosts: ['localhost', 'x.ngrok-free.app:443'] }, 3210)).toEqual({ origin: 'https://x.ngrok-free.app' });
  });
  it('asks for publicUrl when several public hosts are allowed, or the bind address is not loopback', () => {
    expect(publicOrigin({ ...local, allowedHosts: ['a.example', 'b.example'] }, 3210)).toMatchObject({ error: expect.stringMatching(/server\.publicUrl/) });
    expect(publicOrigin({ ...local, host: '0.0.0.0' }, 3210)).toMatchObject({ error: expect.stringMatching(/server\.publicUrl/) });
  });
  it('falls back to the loopback URL the server listens on', () => {
    expect(publicOrigin(local, 4321)).toEqual({ origin: 'http://127.0.0.1:4321' });
    expect(publicOrigin({ ...local, host: '::1' }, 4321)).toEqual({ origin: 'http://[::1]:4321' });
  });
});
