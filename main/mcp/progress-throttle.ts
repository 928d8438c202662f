/**
 * Progress relayed from another MCP server, at most one report per interval per call, the latest
 * kept: an upstream that floods progress (tens of thousands a second) would otherwise flood the
 * client and pile up unsent writes in this server's memory. The last report waiting goes out
 * before the call's answer (flush), so a client still sees where the call ended.
 */
export type ProgressReport = { progress: number; total?: number; message?: string };

/** One report every 100 ms: ten a second is more than a person or a model reads. */
export const PROGRESS_EVERY_MS = 100;

export interface ProgressThrottle {
  report(progress: ProgressReport): void;
  /** Sends the report still waiting, if any, and resolves once what was sent is written. */
  flush(): Promise<void>;
}

export function throttleProgress(send: (progress: ProgressReport) => Promise<unknown>, everyMs = PROGRESS_EVERY_MS): ProgressThrottle {
  let sentAt = -Infinity;
  let waiting: ProgressReport | undefined;
  let timer: NodeJS.Timeout | undefined;
  let written: Promise<unknown> = Promise.resolve();
  const emit = () => {
    timer = undefined;
    if (!waiting) return;
    const progress = waiting;
    waiting = undefined;
    sentAt = performance.now();
    written = send(progress).catch(() => undefined);
  };
  return {
    report(progress) {
      waiting = progress;
      if (timer) return;
      const wait = sentAt + everyMs - performance.now();
      if (wait <= 0) emit();
      else timer = setTimeout(emit, wait);
    },
    async flush() {
      clearTimeout(timer);
      emit();
      await written;
    },
  };
}
