/** Which environment variable names say their value is a secret (a gateway entry must give those by reference). */
import { describe, expect, test } from 'vitest';
import { isSecretEnvName } from '../../main/config/secret-name.js';

describe('isSecretEnvName', () => {
  test.each([
    'GITHUB_TOKEN',
    'ACCESSTOKEN',
    'authToken',
    'apiKey',
    'APIKEY',
    'OPENAI_API_KEY',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'ENCRYPTION_KEY',
    'key_id',
    'DB_PASSWORD',
    'PGPASSWD',
    'GPG_PASSPHRASE',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'AUTH',
    'BASIC_AUTH',
    'OAUTH_CLIENT_SECRET',
    'AUTHORIZATION',
    'SESSION',
    'NOTION_SESSION',
    'SESSION_ID',
    'COOKIE',
    'GITHUB_PAT',
    'BEARER',
    'client-secret',
    'my.token',
    'AUTH_HEADER',
    'SLACK_WEBHOOK_SECRET_URL',
    'OAUTH_TOKEN_URL',
  ])('%s is a secret name', (name) => expect(isSecretEnvName(name)).toBe(true));

  test.each([
    'MAX_TOKENS',
    'TOKENIZER',
    'GIT_AUTHOR_NAME',
    'AUTHORS',
    'XAUTHORITY',
    'KEYBOARD_LAYOUT',
    'SESSION_DIR',
    'SESSION_TIMEOUT',
    'OAUTH_CALLBACK_PORT',
    'PASSWORD_FILE',
    'PRIVATE_KEY_PATH',
    'SECRET_NAME',
    'TOKEN_TTL',
    'PASSWORD_MIN_LENGTH',
    'NODE_ENV',
    'LOG_LEVEL',
    '',
    '__',
  ])('%s is not', (name) => expect(isSecretEnvName(name)).toBe(false));
});
