/** The local implementation of DesktopAppOps, for LocalComputerAdapter to delegate to. */
import type { DesktopAppOps } from './app-ops.js';
import { closeApp } from './close-app.js';
import { launchApp } from './launch-app.js';
import { openUrl } from '../browser/open-url.js';
import { serviceControl, serviceStatus } from '../services/service-manager.js';

export const localDesktopAppOps: DesktopAppOps = Object.freeze({ launchApp, closeApp, openUrl, serviceStatus, serviceControl });
