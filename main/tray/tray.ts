/**
 * The tray icon and menu: a thin renderer of the menu model and tray state. Rebuilds only
 * when something it shows changed, and keeps the Tray referenced (a collected Tray vanishes).
 */
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import path from 'node:path';
import { buildMenuModel, type MenuAction, type MenuFacts, type MenuItemModel } from './menu-model.js';
import { trayIconWithTunnel, trayTooltip, type TrayIconName } from './tray-state.js';

export class TrayController {
  private readonly tray: Tray;
  private readonly images = new Map<TrayIconName, NativeImage>();
  private lastMenu = '';
  private lastIcon: TrayIconName | null = null;

  constructor(
    private readonly iconDir: string,
    private readonly onAction: (action: MenuAction, arg?: string) => void,
  ) {
    this.tray = new Tray(this.image('stopped'));
    this.lastIcon = 'stopped';
  }

  render(facts: MenuFacts, busy: boolean): void {
    const icon = trayIconWithTunnel(facts.status, busy, facts.tunnel && facts.tunnel.wanted ? facts.tunnel.status.state : null);
    if (icon !== this.lastIcon) {
      this.tray.setImage(this.image(icon));
      this.lastIcon = icon;
    }
    const model = buildMenuModel(facts);
    const tooltip = trayTooltip(facts.status, facts.tunnel?.wanted ? facts.tunnel.status : null);
    const key = JSON.stringify([model, tooltip]);
    if (key === this.lastMenu) return;
    this.lastMenu = key;
    this.tray.setToolTip(tooltip);
    this.tray.setContextMenu(Menu.buildFromTemplate(model.map((item) => this.toElectron(item))));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private toElectron(item: MenuItemModel): MenuItemConstructorOptions {
    if (item.type === 'separator') return { type: 'separator' };
    const action = item.action;
    const click = action ? () => this.onAction(action) : undefined;
    if (item.type === 'radio')
      return { type: 'radio', label: item.label, enabled: item.enabled, checked: item.checked, click: () => this.onAction(item.action, item.arg) };
    if (item.type === 'checkbox') return { type: 'checkbox', label: item.label, enabled: item.enabled, checked: item.checked, click };
    return { type: 'normal', label: item.label, enabled: item.enabled, click };
  }

  private image(name: TrayIconName): NativeImage {
    let image = this.images.get(name);
    if (!image) {
      // name.png plus name@2x.png beside it: Electron picks the right one per display scale.
      image = nativeImage.createFromPath(path.join(this.iconDir, `${name}.png`));
      this.images.set(name, image);
    }
    return image;
  }
}
