import { describe, expect, it } from 'vitest';
import { downloadUrl, loopbackOriginProblem, MAX_DOWNLOAD_URL, pickAddress } from '../../main/policy/download.js';

const rules = { allowHttp: false };
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as Error & { code: string };
  }
  throw new Error('not refused');
};

describe('downloadUrl', () => {
  it('takes public https URLs and reads a redirect against the URL that sent it', () => {
    expect(downloadUrl('https://example.com/a.zip', rules).href).toBe('https://example.com/a.zip');
    expect(downloadUrl('/b/c.tar', rules, new URL('https://example.com/a')).href).toBe('https://example.com/b/c.tar');
  });

  it('refuses http unless allowed, a downgrade on a redirect included, and other schemes', () => {
    expect(refusal(() => downloadUrl('http://example.com/', rules)).message).toContain('download.allowHttp');
    expect(refusal(() => downloadUrl('http://example.com/x', rules, new URL('https://example.com/'))).message).toMatch(
      /redirect from https:\/\/example\.com\/ is http:\/\//,
    );
    expect(downloadUrl('http://example.com/', { allowHttp: true }).protocol).toBe('http:');
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'data:text/plain,hi', 'javascript:alert(1)', 'gopher://example.com/'])
      expect(refusal(() => downloadUrl(url, { allowHttp: true })).code, url).toBe('PATH_NOT_ALLOWED');
  });

  it('refuses credentials in the URL and in a Location', () => {
    expect(refusal(() => downloadUrl('https://user:pw@example.com/', rules)).message).toContain('credentials');
    expect(refusal(() => downloadUrl('https://trusted.com@evil.example/', rules)).code).toBe('PATH_NOT_ALLOWED');
    expect(refusal(() => downloadUrl('https://u:p@example.com/x', rules, new URL('https://example.com/'))).message).toContain('user name or password');
  });

  it('refuses metadata names, with or without a trailing dot or capitals', () => {
    for (const host of ['metadata.google.internal', 'METADATA.google.internal.', 'metadata', 'metadata.goog'])
      expect(refusal(() => downloadUrl(`https://${host}/computeMetadata/v1/`, rules)).message, host).toContain('metadata');
  });

  it('refuses overlong URLs and what is not a URL', () => {
    expect(refusal(() => downloadUrl(`https://example.com/${'a'.repeat(MAX_DOWNLOAD_URL)}`, rules)).code).toBe('INVALID_INPUT');
    expect(refusal(() => downloadUrl('not a url', rules)).code).toBe('INVALID_INPUT');
    expect(refusal(() => downloadUrl('https://[::1/', rules)).code).toBe('INVALID_INPUT');
  });
});

describe('pickAddress', () => {
  const url = new URL('https://example.com/');
  it('connects to a public address', () => {
    expect(pickAddress(url, ['93.184.216.34', '2606:2800:220:1::1'], rules)).toBe('93.184.216.34');
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:0.0.0.0',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    'fd00::1',
    'fc00::1',
    'fe80::1%eth0',
    'fd00:ec2::254',
  ])('refuses a host resolving to %s, even beside a public address', (address) => {
    const error = refusal(() => pickAddress(url, ['93.184.216.34', address], rules));
    expect(error.code).toBe('PATH_NOT_ALLOWED');
    expect(error.message).toMatch(/^example\.com: .* (is|reaches) .*; downloads fetch public https:\/\/ URLs only on public internet addresses/);
  });

  it('judges an address literal the URL parser normalised from an odd spelling', () => {
    for (const spelling of ['0x7f.1', '2130706433', '0177.0.0.1', '0xa9fea9fe']) {
      const literal = downloadUrl(`https://${spelling}/`, rules);
      expect(refusal(() => pickAddress(literal, [literal.hostname], rules)).code, spelling).toBe('PATH_NOT_ALLOWED');
    }
    const v6 = downloadUrl('https://[::ffff:7f00:1]/', rules);
    expect(refusal(() => pickAddress(v6, [v6.hostname], rules)).message).toContain('127.0.0.1');
  });

  it('admits loopback for the one test origin only, exactly', () => {
    const test = { allowHttp: false, testLoopbackOrigin: 'https://127.0.0.1:8443' };
    expect(pickAddress(new URL('https://127.0.0.1:8443/f'), ['127.0.0.1'], test)).toBe('127.0.0.1');
    for (const other of ['https://127.0.0.1:8444/', 'https://127.0.0.2:8443/', 'https://localhost:8443/', 'http://127.0.0.1:8443/'])
      expect(() => pickAddress(new URL(other), ['127.0.0.1'], test), other).toThrow(/loopback/);
    expect(() => pickAddress(new URL('https://127.0.0.1:8443/'), ['10.0.0.1'], test)).toThrow(/private network/);
  });
});

describe('loopbackOriginProblem', () => {
  it('takes a loopback origin with a port, nothing else', () => {
    expect(loopbackOriginProblem('https://127.0.0.1:8443')).toBeUndefined();
    expect(loopbackOriginProblem('https://[::1]:8443')).toBeUndefined();
    for (const bad of ['https://localhost:8443', 'https://10.0.0.1:8443', 'https://127.0.0.1', 'https://127.0.0.1:8443/path', 'ftp://127.0.0.1:21', 'nope'])
      expect(loopbackOriginProblem(bad), bad).toBeDefined();
  });
});
