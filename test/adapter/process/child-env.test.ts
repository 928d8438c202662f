/** The short environment every child the adapter starts begins from. */
import { describe, expect, it } from 'vitest';
import { helperEnvironment, shortEnvironment } from '../../../adapter/process/child-env.js';

const serverEnv = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  LANG: 'de_DE.UTF-8',
  LC_TIME: 'C',
  DISPLAY: ':0',
  SystemRoot: 'C:\\Windows',
  CHATGPT_MCP_TOKEN: 'secret-token-0123456789',
  OPENAI_API_KEY: 'sk-secret',
  NODE_OPTIONS: '--require /tmp/x.js',
  LD_PRELOAD: '/tmp/x.so',
  UNSET: undefined,
};

describe('shortEnvironment', () => {
  it('keeps what programs need to start and find the session, and nothing else', () => {
    expect(shortEnvironment(serverEnv)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'de_DE.UTF-8',
      LC_TIME: 'C',
      DISPLAY: ':0',
      SystemRoot: 'C:\\Windows',
    });
  });

  it('helperEnvironment is the same in the C locale, for tools whose output is parsed', () => {
    const env = helperEnvironment(serverEnv);
    expect(env).toMatchObject({ PATH: '/usr/bin', LANG: 'C', LC_ALL: 'C' });
    expect(JSON.stringify(env)).not.toMatch(/secret|NODE_OPTIONS|LD_PRELOAD/);
  });
});
