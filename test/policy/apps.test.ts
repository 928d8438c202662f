/** Which configured apps app.launch and app.close may act on. */
import { describe, expect, it } from 'vitest';
import { AppPolicy } from '../../main/policy/apps.js';
import { makeConfig } from '../helpers/servers.js';

const apps = new AppPolicy(
  makeConfig({
    desktop: {
      apps: { editor: { path: '/usr/bin/gedit', args: ['--new-window'] }, viewer: { path: '/usr/bin/eog', allowExtraArgs: true } },
    },
  }),
);

describe('AppPolicy', () => {
  it('gives the configured executable with its fixed args, then allowed extra args', () => {
    expect(apps.launch('editor')).toEqual({ path: '/usr/bin/gedit', args: ['--new-window'] });
    expect(apps.launch('viewer', ['a.png'])).toEqual({ path: '/usr/bin/eog', args: ['a.png'] });
    expect(apps.close('editor')).toEqual({ path: '/usr/bin/gedit', args: ['--new-window'] });
  });

  it('refuses extra args where the app does not allow them', () => {
    expect(() => apps.launch('editor', ['--exec=sh'])).toThrow(/desktop\.apps\.editor\.allowExtraArgs is false/);
  });

  it('refuses unknown names, listing the configured ones, and inherited object keys', () => {
    expect(() => apps.launch('shell')).toThrow(/no app named "shell" is configured; configured apps \(desktop\.apps\): editor, viewer/);
    expect(() => apps.close('constructor')).toThrow(/no app named "constructor"/);
    expect(() => new AppPolicy(makeConfig()).launch('x')).toThrow(/configured apps \(desktop\.apps\): none/);
  });
});
