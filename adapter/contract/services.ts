/**
 * Service status and control behind the seam: systemd, launchd or the Windows SCM, chosen by OS.
 *
 * For an adapter author: the policy has checked the name and the action; answer with the
 * manager's own state words, and NOT_FOUND for a service the manager does not know.
 */

export type ServiceManager = 'systemd' | 'launchd' | 'windows';
export type ServiceAction = 'start' | 'stop' | 'restart';

export interface ServiceStatus {
  manager: ServiceManager;
  /** The manager's own state word: systemd ActiveState (active, inactive, failed...), launchd
   * state (running, not running...), Windows (running, stopped, start-pending...). */
  state: string;
  /** Whether the manager starts it automatically (unknown for systemd static units and
   * launchd jobs without an override). */
  enabled?: boolean;
  /** Extra detail: systemd SubState, launchd pid, Windows start type. */
  detail?: string;
}

export interface ServiceOps {
  serviceStatus(name: string): Promise<ServiceStatus>;
  serviceControl(name: string, action: ServiceAction): Promise<ServiceStatus>;
}
