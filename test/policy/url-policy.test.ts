import { describe, expect, test } from 'vitest';
import { MAX_URL_LENGTH, parseUrlPattern, UrlPolicy } from '../../main/policy/url-policy.js';

const checkBrowserUrl = (url: string, patterns: string[]) => new UrlPolicy(patterns).decide(url);

describe('checkBrowserUrl without patterns', () => {
  const refused: Array<[string, string]> = [
    ['file:///etc/passwd', 'file: scheme'],
    ['javascript:alert(1)', 'javascript: scheme'],
    ['JavaScript:alert(1)', 'javascript: scheme'],
    ['data:text/html,<script>alert(1)</script>', 'data: scheme'],
    ['vbscript:msgbox(1)', 'vbscript: scheme'],
    ['about:blank', 'about: scheme'],
    ['ftp://example.com/x', 'ftp: scheme'],
    ['ms-settings:privacy', 'ms-settings: scheme'],
    ['steam://run/10', 'steam: scheme'],
    ['blob:https://example.com/1234', 'blob: scheme'],
    ['https://user:pass@example.com/', 'user name or password'],
    ['https://example.com@evil.com/', 'user name or password'],
    ['example.com', 'not an absolute URL'],
    ['/relative/path', 'not an absolute URL'],
    ['http://', 'not an absolute URL'],
    [`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`, 'the limit is'],
  ];
  test.each(refused)('%s is refused (%s)', (url, reason) => {
    const decision = checkBrowserUrl(url, []);
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.reason).toContain(reason);
  });

  const allowed: Array<[string, string]> = [
    ['https://example.com', 'https://example.com/'],
    ['HTTP://Example.COM/a b?q="x"', 'http://example.com/a%20b?q=%22x%22'],
    ['https://example.com/search?q=a&b=c;d=$(id)', 'https://example.com/search?q=a&b=c;d=$(id)'],
    ['https://münchen.de/', 'https://xn--mnchen-3ya.de/'],
    ['  https://example.com/x  ', 'https://example.com/x'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
  ];
  test.each(allowed)('%s opens as %s', (url, normalized) => {
    expect(checkBrowserUrl(url, [])).toEqual({ ok: true, url: normalized });
  });
});

describe('owner patterns', () => {
  const patterns = ['https://*.example.com/*', 'https://docs.python.org/3/*', 'http://localhost:*', '*://intranet.test'];
  const rows: Array<[string, boolean]> = [
    ['https://example.com/', true],
    ['https://www.example.com/a/b?c=d', true],
    ['https://a.b.example.com/', true],
    ['http://www.example.com/', false], // scheme
    ['https://example.com:8443/', false], // port not default
    ['https://evilexample.com/', false],
    ['https://example.com.evil.com/', false],
    ['https://docs.python.org/3/library/os.html', true],
    ['https://docs.python.org/2/library/os.html', false],
    ['https://docs.python.org/3', false], // path /3 is not /3/*
    ['http://localhost:3000/app', true],
    ['http://localhost/', true],
    ['https://localhost:3000/', false],
    ['http://intranet.test/any/path?x', true],
    ['https://intranet.test/', true],
    ['https://intranet.test:444/', false],
  ];
  test.each(rows)('%s -> %s', (url, ok) => {
    const decision = checkBrowserUrl(url, patterns);
    expect(decision.ok).toBe(ok);
    if (!decision.ok) expect(decision.reason).toContain('allowed patterns: https://*.example.com/*, https://docs.python.org/3/*');
  });

  test('a path wildcard spans the query and never the fragment alone', () => {
    expect(checkBrowserUrl('https://a.test/p?x=1#frag', ['https://a.test/p?x=*']).ok).toBe(true);
    expect(checkBrowserUrl('https://a.test/p#frag', ['https://a.test/p']).ok).toBe(true);
  });

  test('regex characters in patterns are literal', () => {
    expect(checkBrowserUrl('https://a.test/v1.0/x', ['https://a.test/v1.0/*']).ok).toBe(true);
    expect(checkBrowserUrl('https://a.test/v1x0/x', ['https://a.test/v1.0/*']).ok).toBe(false);
  });

  test('invalid patterns are reported and never allow anything', () => {
    const decision = checkBrowserUrl('https://example.com/', ['example.com', 'ftp://x.test/*']);
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.reason).toMatch(/ignored invalid patterns: "example.com" is not a valid URL pattern.*"ftp:\/\/x.test\/\*"/);
  });

  test('parseUrlPattern explains the syntax', () => {
    expect(() => parseUrlPattern('https://exa*mple.com/')).toThrow(/scheme:\/\/host\[:port\]\[\/path\]/);
    expect(() => parseUrlPattern('https://x.test:99999/')).toThrow(/invalid port/);
    expect(parseUrlPattern('https://*/*').host).toBe('*');
  });
});
