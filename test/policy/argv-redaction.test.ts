/** Secrets in command lines: what process.list and the tray's process panel hide. */
import { describe, expect, test } from 'vitest';
import { isSecretName, redactArgs } from '../../main/policy/argv-redaction.js';

// [argv, expected argv]
const rows: Array<[string[], string[]]> = [
  // --name=value and --name value
  [
    ['tool', '--password=hunter2'],
    ['tool', '--password=***'],
  ],
  [
    ['tool', '--password', 'hunter2', 'db'],
    ['tool', '--password', '***', 'db'],
  ],
  [
    ['tool', '--db-password=a=b,c'],
    ['tool', '--db-password=***'],
  ],
  [
    ['tool', '--token', 'ghp_abc'],
    ['tool', '--token', '***'],
  ],
  [
    ['tool', '-token', 'ghp_abc'],
    ['tool', '-token', '***'],
  ],
  [
    ['tool', '--apiKey=k1'],
    ['tool', '--apiKey=***'],
  ],
  [
    ['tool', '--api-key', 'k1'],
    ['tool', '--api-key', '***'],
  ],
  [
    ['tool', '--client_secret=s'],
    ['tool', '--client_secret=***'],
  ],
  [
    ['tool', '--auth', 'user:pw'],
    ['tool', '--auth', '***'],
  ],
  [
    ['tool', '--oauth2-bearer', 'x'],
    ['tool', '--oauth2-bearer', '***'],
  ],
  [
    ['tool', '--private-key=PEM'],
    ['tool', '--private-key=***'],
  ],
  [
    ['tool', '--aws-access-key-id', 'AKIA'],
    ['tool', '--aws-access-key-id', '***'],
  ],
  [
    ['tool', '--credentials=/x'],
    ['tool', '--credentials=***'],
  ],
  [
    ['openssl', 'enc', '-pass', 'pass:hunter2'],
    ['openssl', 'enc', '-pass', '***'],
  ],
  [
    ['plink', '-pw', 'hunter2', 'host'],
    ['plink', '-pw', '***', 'host'],
  ],
  [
    ['tool', '--cookie', 'session=abc'],
    ['tool', '--cookie', '***'],
  ],
  // a flag with no value is left alone
  [
    ['tool', '--password', '--verbose'],
    ['tool', '--password', '--verbose'],
  ],
  // NAME=value, also inside option lists and query strings
  [
    ['env', 'PGPASSWORD=hunter2', 'psql'],
    ['env', 'PGPASSWORD=***', 'psql'],
  ],
  [
    ['env', 'GITHUB_TOKEN=ghp_x', 'AWS_SECRET_ACCESS_KEY=y', 'OPENAI_API_KEY=z'],
    ['env', 'GITHUB_TOKEN=***', 'AWS_SECRET_ACCESS_KEY=***', 'OPENAI_API_KEY=***'],
  ],
  [
    ['env', 'NPM_AUTH=x', 'BASICAUTH=u:p', 'MY_CREDENTIALS=c'],
    ['env', 'NPM_AUTH=***', 'BASICAUTH=***', 'MY_CREDENTIALS=***'],
  ],
  [
    ['mount', '-o', 'user=bob,password=hunter2,vers=3', '//s/x', '/mnt'],
    ['mount', '-o', 'user=bob,password=***,vers=3', '//s/x', '/mnt'],
  ],
  [
    ['curl', 'https://api.test/v1?access_token=abc&page=2'],
    ['curl', 'https://api.test/v1?access_token=***&page=2'],
  ],
  // URL credentials
  [
    ['git', 'clone', 'https://bob:ghp_secret@github.com/o/r.git'],
    ['git', 'clone', 'https://bob:***@github.com/o/r.git'],
  ],
  [
    ['psql', 'postgres://app:p@ss@db:5432/x'],
    ['psql', 'postgres://app:***@db:5432/x'],
  ],
  [
    ['/opt/x', 'redis://:hunter2@cache:6379'],
    ['/opt/x', 'redis://:***@cache:6379'],
  ],
  [
    ['/opt/x', '1https://bob:pw@h', 'url=xhttps://bob:pw@h', 'a.b+ssh://bob:pw@h'],
    ['/opt/x', '1https://bob:***@h', 'url=xhttps://bob:***@h', 'a.b+ssh://bob:***@h'],
  ],
  // headers and JSON-ish literals
  [
    ['curl', '-H', 'Authorization: Bearer abc.def'],
    ['curl', '-H', 'Authorization: ***'],
  ],
  [
    ['curl', '-H', 'X-Api-Key: k'],
    ['curl', '-H', 'X-Api-Key: ***'],
  ],
  [
    ['tool', '--json', '{"user":"bob","password":"hunter2"}'],
    ['tool', '--json', '{"user":"bob","password":"***"}'],
  ],
  // well-known short options, per program
  [
    ['mysql', '-uroot', '-phunter2', 'db'],
    ['mysql', '-uroot', '-p***', 'db'],
  ],
  [
    ['/usr/bin/mysqldump', '-p', 'db'],
    ['/usr/bin/mysqldump', '-p', 'db'],
  ],
  [
    ['sshpass', '-p', 'hunter2', 'ssh', 'host'],
    ['sshpass', '-p', '***', 'ssh', 'host'],
  ],
  [
    ['sshpass', '-phunter2', 'ssh', 'host'],
    ['sshpass', '-p***', 'ssh', 'host'],
  ],
  [
    ['redis-cli', '-a', 'hunter2', 'ping'],
    ['redis-cli', '-a', '***', 'ping'],
  ],
  [
    ['curl', '-u', 'bob:hunter2', 'https://x.test'],
    ['curl', '-u', 'bob:***', 'https://x.test'],
  ],
  [
    ['curl', '--user', 'bob', 'https://x.test'],
    ['curl', '--user', 'bob', 'https://x.test'],
  ],
  [
    ['curl', '-ubob:hunter2', '--user=bob:hunter2', 'https://x.test'],
    ['curl', '-ubob:***', '--user=bob:***', 'https://x.test'],
  ],
  [
    ['wget', '--header=Authorization: Bearer hunter2', '--header=Accept: text/html', 'https://x.test'],
    ['wget', '--header=Authorization: ***', '--header=Accept: text/html', 'https://x.test'],
  ],
  [
    ['docker', 'login', '-u', 'bob', '-p', 'hunter2', 'registry.test'],
    ['docker', 'login', '-u', 'bob', '-p', '***', 'registry.test'],
  ],
  [
    ['ldapsearch', '-x', '-D', 'cn=admin', '-w', 'hunter2'],
    ['ldapsearch', '-x', '-D', 'cn=admin', '-w', '***'],
  ],
  [
    ['ldapsearch', '-whunter2'],
    ['ldapsearch', '-w***'],
  ],
  [
    ['smbclient', '//srv/share', '-U', 'admin%hunter2'],
    ['smbclient', '//srv/share', '-U', 'admin%***'],
  ],
  [
    ['smbclient', '//srv/share', '-Uadmin%hunter2'],
    ['smbclient', '//srv/share', '-Uadmin%***'],
  ],
  [
    ['curl', '-sSu', 'bob:hunter2', '-HAuthorization: Bearer hunter2', 'https://x.test'],
    ['curl', '-sSu', 'bob:***', '-HAuthorization: ***', 'https://x.test'],
  ],
  [
    ['docker', '-H', 'tcp://h', 'login', '-phunter2', '-p=hunter2', 'registry.test'],
    ['docker', '-H', 'tcp://h', 'login', '-p***', '-p=***', 'registry.test'],
  ],
  [
    ['ldapsearch', '-xw', 'hunter2', '-xwhunter2'],
    ['ldapsearch', '-xw', '***', '-xw***'],
  ],
  [
    ['smbclient', '//srv/share', '-NU', 'admin%hunter2'],
    ['smbclient', '//srv/share', '-NU', 'admin%***'],
  ],
  [
    ['git', '-c', 'http.extraheader=AUTHORIZATION: basic aHVudGVyMg==', 'fetch'],
    ['git', '-c', 'http.extraheader=AUTHORIZATION: ***', 'fetch'],
  ],
  // left readable
  [
    ['docker', 'run', '-p', '8080:80', 'nginx'],
    ['docker', 'run', '-p', '8080:80', 'nginx'],
  ],
  [
    ['curl', '-v', '-o', 'out.html', 'https://x.test'],
    ['curl', '-v', '-o', 'out.html', 'https://x.test'],
  ],
  [
    ['ssh', '-p', '2222', 'host'],
    ['ssh', '-p', '2222', 'host'],
  ],
  [
    ['git', 'commit', '--author=Bob <b@x.test>', '-m', 'fix'],
    ['git', 'commit', '--author=Bob <b@x.test>', '-m', 'fix'],
  ],
  [
    ['env', 'GIT_AUTHOR_NAME=Bob', 'XAUTHORITY=/home/b/.Xauthority', 'NODE_ENV=production'],
    ['env', 'GIT_AUTHOR_NAME=Bob', 'XAUTHORITY=/home/b/.Xauthority', 'NODE_ENV=production'],
  ],
  [
    ['node', 'server.js', '--port=8080', 'https://example.com:8443/a@b'],
    ['node', 'server.js', '--port=8080', 'https://example.com:8443/a@b'],
  ],
  [
    ['tar', '-xf', 'keys.tar', 'tokens.txt'],
    ['tar', '-xf', 'keys.tar', 'tokens.txt'],
  ],
  [[], []],
];

describe('redactArgs', () => {
  test.each(rows)('%j -> %j', (argv, expected) => {
    expect(redactArgs(argv)).toEqual(expected);
  });

  test('never leaves the secret anywhere in the result', () => {
    for (const [argv] of rows) {
      const out = redactArgs(argv).join('\n');
      for (const secret of ['hunter2', 'ghp_secret', 'ghp_abc', 'abc.def']) if (argv.join('\n').includes(secret)) expect(out).not.toContain(secret);
    }
  });

  test('is linear on huge command lines', () => {
    const argv = ['tool', ...Array.from({ length: 20_000 }, (_, i) => (i % 2 ? `--password=${i}` : `a=b,c;d&e?f=${'x'.repeat(50)}`))];
    const started = performance.now();
    expect(redactArgs(argv)).toHaveLength(argv.length);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  // A scheme tried from every letter made one 100 KB argument cost 16 s (another user's process could stall process.list).
  test.each([
    ['letters', 'x'.repeat(128_000)],
    ['options', '--a'.repeat(42_000)],
    ['schemes', 'a://'.repeat(32_000)],
    ['quoted pairs', '"a":'.repeat(32_000)],
  ])('is linear on one 128 KB argument of %s', (_name, arg) => {
    const started = performance.now();
    expect(redactArgs(['tool', arg, `k=${arg}`])).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('isSecretName', () => {
  test.each([
    'password',
    'PASSWD',
    'db_pass',
    'pwd',
    'Secret',
    'GITHUB_TOKEN',
    'api-key',
    'apiKey',
    'ACCESS_KEY',
    'private_key',
    'credential',
    'AUTH',
    'auth_token',
    'authorization',
    'oauth2',
  ])('%s is a secret name', (name) => expect(isSecretName(name)).toBe(true));
  test.each(['author', 'GIT_AUTHOR_EMAIL', 'XAUTHORITY', 'port', 'user', 'path', 'key', 'passive', 'compass'])('%s is not', (name) =>
    expect(isSecretName(name)).toBe(false),
  );
});
