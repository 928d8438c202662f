/**
 * Which page is open, and the field to focus once it has rendered: asked for by the main process
 * (the tray, a saved file's first problem) or by Save finding an error.
 */
import { useCallback, useEffect, useState } from 'react';
import type { NavigateRequest, SectionId, SettingsBridge } from '../../../main/tray/bridge-api';
import { fieldId } from '../components/fields/field-id';

export function useNavigation(bridge: SettingsBridge) {
  const [section, setSection] = useState<SectionId>('connection');
  /**
   * The field to focus once its section has rendered. State, not a ref: a ref set between a commit and its
   * still-pending effects was taken by that earlier commit's effect, which looked in the old section's DOM.
   */
  const [focusRequest, setFocusRequest] = useState<{ key: string } | null>(null);

  const navigate = useCallback((request: NavigateRequest) => {
    setSection(request.section);
    setFocusRequest(request.field ? { key: request.field.map(String).join('.') } : null);
  }, []);

  useEffect(() => bridge.onNavigate(navigate), [bridge, navigate]);

  // After switching sections, move focus to the requested field (or the closest container).
  useEffect(() => {
    if (!focusRequest) return;
    const parts = focusRequest.key.split('.');
    for (let n = parts.length; n > 0; n--) {
      const id = fieldId(parts.slice(0, n).join('.'));
      // The field itself, or the first control inside it (a root's path, an app's name).
      const element = document.getElementById(id) ?? document.querySelector<HTMLElement>(`[id^="${id}-"]:not([id$="-error"]):not([id$="-hint"])`);
      if (element) {
        element.focus({ preventScroll: true });
        reveal(element);
        return;
      }
    }
  }, [focusRequest]);

  return { section, setSection, navigate };
}

/** Shows a focused field without hiding the page title when both fit (focus alone would scroll). */
function reveal(element: HTMLElement): void {
  const page = element.closest<HTMLElement>('.page');
  if (!page) return element.scrollIntoView({ block: 'nearest' });
  const top = element.getBoundingClientRect().top - page.getBoundingClientRect().top + page.scrollTop;
  const bottom = top + element.getBoundingClientRect().height;
  page.scrollTo({ top: bottom + 24 <= page.clientHeight ? 0 : Math.max(0, top - page.clientHeight / 3) });
}
