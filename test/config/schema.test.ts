import { describe, expect, it } from 'vitest';
import { configSchema, publicUrlProblem } from '../../main/config/schema.js';

describe('server.publicUrl', () => {
  it.each(['https://calm-river.trycloudflare.com', 'https://x.ngrok-free.app/', 'https://host.example:8443', 'http://localhost:3210', 'http://127.0.0.1:9'])(
    'accepts %s',
    (url) => expect(publicUrlProblem(url)).toBeNull(),
  );
  it.each([
    ['http://calm-river.trycloudflare.com', /https/],
    ['https://x.example/mcp', /origin only/],
    ['https://x.example/?a=1', /origin only/],
    ['https://x.example/#f', /origin only/],
    ['https://user:pw@x.example', /user name/],
    ['calm-river.trycloudflare.com', /expected a URL/],
  ])('refuses %s', (url, why) => expect(publicUrlProblem(url)).toMatch(why));

  it('defaults to "" (none) and reports the problem at the key path', () => {
    expect(configSchema.parse({}).server.publicUrl).toBe('');
    const result = configSchema.safeParse({ server: { publicUrl: 'https://x.example/mcp' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['server', 'publicUrl'], message: expect.stringMatching(/origin only/) });
  });
});
