/**
 * Gives memory back once the server is idle. V8 collects old garbage only as its heap nears a
 * limit it raises as it goes, so after a burst of calls (big reads, long outputs, thousands of
 * small ones) a server that then sits idle keeps tens of MiB of dead objects resident until the
 * next burst. One full collection, a moment after the last call ended and only when resident
 * memory grew since the last one, returns them: a few milliseconds of CPU per idle period.
 * Then malloc_trim hands back what the C++ side freed into glibc's arenas (Linux).
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { mallocTrim } from '../../adapter/os/malloc-trim.js';

/** How long after the last call ended the server counts as idle: short, so memory comes back between the bursts of an agent's loop. */
const IDLE_MS = 250;
/** Growth of resident memory since the last collection that makes one worth its milliseconds. */
const GROWTH_BYTES = 16 * 1024 * 1024;

export interface IdleMemoryOptions {
  /** A full collection (default: V8's own, as --expose-gc gives it, in a context of its own, then malloc_trim). */
  collect?: () => void;
  /** Resident memory in bytes (default: process.memoryUsage.rss). */
  resident?: () => number;
  idleMs?: number;
  growthBytes?: number;
}

export interface IdleMemory {
  /** Tell it a call ended: the idle wait starts again (a plain function: pass it as it is). */
  callEnded: () => void;
  close: () => void;
}

export function idleMemory(options: IdleMemoryOptions = {}): IdleMemory {
  const collect = options.collect ?? processCollect();
  const resident = options.resident ?? (() => process.memoryUsage.rss());
  const growth = options.growthBytes ?? GROWTH_BYTES;
  const idleMs = options.idleMs ?? IDLE_MS;
  let baseline = resident();
  const trim = () => {
    if (resident() - baseline < growth) return;
    collect();
    baseline = resident();
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    callEnded() {
      if (timer) {
        timer.refresh(); // restarts the wait, also once it has fired
        return;
      }
      timer = setTimeout(trim, idleMs);
      timer.unref(); // never what keeps the process alive
    },
    close: () => clearTimeout(timer),
  };
}

/** This process's own: V8's full collection, then malloc_trim; and a young generation kept small. */
function processCollect(): () => void {
  keepYoungGenerationSmall();
  const gc = v8Collect();
  return () => {
    gc();
    mallocTrim();
  };
}

/**
 * V8 doubles its young generation (up to 16 MiB per semi-space, 32 MiB resident) whenever a
 * scavenge finds much alive, and never gives it back: no collection shrinks it. Growth factor 1
 * keeps it at its starting 1 MiB semi-spaces (set at run time it takes effect; as a command-line
 * flag it does not). The price is more scavenges, each as cheap as what survives it.
 */
function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

let exposed: (() => void) | undefined;

/** V8's gc(), exposed once for this process; only this module calls it. */
function v8Collect(): () => void {
  if (!exposed) {
    v8.setFlagsFromString('--expose-gc');
    exposed = vm.runInNewContext('gc') as () => void;
  }
  return exposed;
}
