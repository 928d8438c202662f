import { describe, expect, it } from 'vitest';
import { hideUrlCredentials } from '../../../adapter/contract/git.js';

describe('hideUrlCredentials', () => {
  it('hides what stands before the @ of a URL, slashes and quotes in a password included', () => {
    expect(hideUrlCredentials("fatal: unable to access 'https://me:ghp_x1@github.com/o/r/': 403")).toBe(
      "fatal: unable to access 'https://***@github.com/o/r/': 403",
    );
    expect(hideUrlCredentials('remote https://me:SECR/ET6@github.com/me/app.git')).toBe('remote https://***@github.com/me/app.git');
    expect(hideUrlCredentials('remote HTTPS://me:SECRET8"tok@github.com/me/app.git')).toBe('remote HTTPS://***@github.com/me/app.git');
    expect(hideUrlCredentials('ssh://git:pw@host:2222/x')).toBe('ssh://***@host:2222/x');
  });

  it("hides the password of git's scp-like form, and leaves a plain one as it is", () => {
    expect(hideUrlCredentials('the remote me:SECRET3tok@github.com:me/app.git is not allowed')).toBe('the remote ***@github.com:me/app.git is not allowed');
    expect(hideUrlCredentials("'me:SECRET3tok@github.com:me/app.git'")).toBe("'***@github.com:me/app.git'");
    expect(hideUrlCredentials('git@github.com:me/app.git')).toBe('git@github.com:me/app.git');
    expect(hideUrlCredentials('see https://github.com/me/app and 12:30')).toBe('see https://github.com/me/app and 12:30');
  });
});
