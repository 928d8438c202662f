/** The client's own doctor, read from its RESULT line: exit status 0 alone proves nothing. */
import { describe, expect, it } from 'vitest';
import { clientDoctorVerdict } from '../../main/cli/tunnel-doctor.js';

const OK = 'CHECK config_source            PASS flags/environment only\n\nRESULT ok\nNEXT   tunnel-client run\n';
const FAIL = (ids: string) => `CHECK tunnel_id                PASS tunnel_x\n\nRESULT fail\nFAILED_CHECKS ${ids}\nEXIT_CODE 2\n`;

describe('the tunnel client doctor’s verdict', () => {
  it('passes on RESULT ok and fails on RESULT fail, naming the failed checks', () => {
    expect(clientDoctorVerdict(0, OK, true)).toEqual({ verdict: 'PASS', text: 'tunnel-client doctor: RESULT ok' });
    expect(clientDoctorVerdict(2, FAIL('tunnel_id,mcp_server_reachable'), true)).toEqual({
      verdict: 'FAIL',
      text: 'tunnel-client doctor: RESULT fail (tunnel_id, mcp_server_reachable)',
    });
  });

  it('is unknown when a program exits 0 without a RESULT (/bin/true), and fails when it exits otherwise', () => {
    expect(clientDoctorVerdict(0, '', true).verdict).toBe('UNKNOWN');
    expect(clientDoctorVerdict(1, 'unknown command "doctor"', true)).toEqual({
      verdict: 'FAIL',
      text: 'tunnel-client doctor exited with 1 and reported no RESULT',
    });
  });

  it('explains the one check a bearer-token server cannot pass (OAuth metadata), and only for such a server', () => {
    expect(clientDoctorVerdict(2, FAIL('oauth_metadata'), true).verdict).toBe('WARN');
    expect(clientDoctorVerdict(2, FAIL('oauth_metadata'), false).verdict).toBe('FAIL');
    expect(clientDoctorVerdict(2, FAIL('oauth_metadata,tunnel_id'), true).verdict).toBe('FAIL');
  });
});
