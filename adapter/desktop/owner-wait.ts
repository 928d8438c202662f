/**
 * A backend's word that the desktop is asking its owner (the portal's consent dialog, the
 * shell's screenshot permission): the worker passes it on to the server, which then lets the
 * calls in flight wait for the answer instead of timing out after the usual few seconds (and
 * stopping the worker while the owner is still reading the dialog).
 */
let listener: ((ms: number) => void) | undefined;

/** The worker's hook (one per process). */
export function onOwnerWait(notify: (ms: number) => void): void {
  listener = notify;
}

/** The calls in flight may take `ms` more from now: the owner is being asked. */
export function ownerWait(ms: number): void {
  listener?.(ms);
}
