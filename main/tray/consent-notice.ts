/** A connection request through the tunnel, said in a desktop notification that opens the settings window's Clients page. */
import { Notification } from 'electron';
import type { ConsentRequest } from '../auth/connections.js';

export function showConsentNotice(request: ConsentRequest, openClients: () => void): void {
  if (!Notification.isSupported()) return;
  const note = new Notification({
    title: `"${request.clientName}" asks to connect`,
    body: `Code ${request.code}, returning to ${request.redirectHost}. Approve only if the page you opened shows this code and ${request.redirectHost} is the app you are connecting.`,
  });
  note.on('click', openClients);
  note.show();
}
