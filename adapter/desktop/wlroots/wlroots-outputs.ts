/**
 * The compositor's outputs (monitors) as the desktop sees them: wl_output for the mode, scale
 * and name, and xdg-output for the logical position and size where the compositor has it (every
 * wlroots compositor does). The layout's bounding box is the desktop the virtual pointer's
 * absolute motion spans.
 */
import type { DisplayInfo } from '../../contract/desktop.js';
import type { ScreenSize } from '../../contract/geometry.js';
import { readString, type WaylandConnection } from './wayland-connection.js';

interface Output {
  /** Our wl_output object for it. */
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
  name: string;
}

export class WlrootsOutputs {
  private readonly outputs: Output[] = [];

  private constructor() {}

  static async read(connection: WaylandConnection): Promise<WlrootsOutputs> {
    const result = new WlrootsOutputs();
    const manager = connection.bind('zxdg_output_manager_v1', 3);
    for (const global of connection.globals.filter((g) => g.interface === 'wl_output')) {
      const id = connection.bind('wl_output', 4, (g) => g.name === global.name)!;
      const output: Output = { id, x: 0, y: 0, width: 0, height: 0, scale: 1, name: `output-${global.name}` };
      result.outputs.push(output);
      connection.listen(id, (opcode, body) => {
        if (opcode === 0 && manager === undefined)
          [output.x, output.y] = [body.readInt32LE(0), body.readInt32LE(4)]; // geometry
        else if (opcode === 1 && body.readUInt32LE(0) & 1 && manager === undefined)
          [output.width, output.height] = [body.readInt32LE(4), body.readInt32LE(8)]; // current mode
        else if (opcode === 3) output.scale = body.readInt32LE(0);
        else if (opcode === 4) output.name = readString(body, 0).value;
      });
      if (manager !== undefined) {
        const xdg = connection.newId();
        connection.request(manager, 1, [{ u: xdg }, { u: id }]);
        connection.listen(xdg, (opcode, body) => {
          if (opcode === 0) [output.x, output.y] = [body.readInt32LE(0), body.readInt32LE(4)];
          else if (opcode === 1) [output.width, output.height] = [body.readInt32LE(0), body.readInt32LE(4)];
        });
      }
    }
    await connection.roundtrip();
    await connection.roundtrip(); // the outputs' events come after their binding was handled
    return result;
  }

  /** The layout's bounding box from 0,0 (a layout starting left of or above 0,0 is not supported). */
  size(): ScreenSize {
    const sized = this.outputs.filter((o) => o.width > 0 && o.height > 0);
    return {
      width: Math.max(1, ...sized.map((o) => o.x + o.width)),
      height: Math.max(1, ...sized.map((o) => o.y + o.height)),
    };
  }

  /** The name of the output our wl_output object `id` stands for. */
  nameOf(id: number): string | undefined {
    return this.outputs.find((o) => o.id === id)?.name;
  }

  scale(): number {
    return this.outputs[0]?.scale ?? 1;
  }

  displays(): Array<Omit<DisplayInfo, 'index'>> {
    return this.outputs
      .filter((o) => o.width > 0 && o.height > 0)
      .map((o, i) => ({ name: o.name, x: o.x, y: o.y, width: o.width, height: o.height, scaleFactor: o.scale, primary: i === 0 }));
  }
}
