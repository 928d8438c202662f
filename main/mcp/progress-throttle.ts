/**
 * Progress relayed from another MCP server, at most one report per interval per call, the latest
 * kept: an upstream that floods progress (tens of thousands a second) would otherwise flood the
 * client and pile up unsent writes in this server's memory. The last report waiting goes out
 * before the call's answer (flush), so a client still sees where the call ended.
 */
export type ProgressReport = { progress: number; total?: number; message?: string };

/** The longest progress message relayed (in UTF-16 units); the rest is cut with a marker. */
export const MAX_PROGRESS_MESSAGE_CHARS = 1024;

/**
 * An upstream's report as it is relayed: its numbers (finite ones only) and its message with
 * `scrub` applied (the secrets resolved for it) and cut to MAX_PROGRESS_MESSAGE_CHARS. Nothing
 * else it put in the notification passes, so a report is a few hundred bytes at most.
 */
export function boundedProgress(report: ProgressReport, scrub: (text: string) => string): ProgressReport {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const total = number(report.total);
  let message = typeof report.message === 'string' ? report.message : undefined;
  if (message !== undefined && message.length > MAX_PROGRESS_MESSAGE_CHARS * 4) message = message.slice(0, MAX_PROGRESS_MESSAGE_CHARS * 4);
  if (message !== undefined) message = scrub(message);
  if (message !== undefined && message.length > MAX_PROGRESS_MESSAGE_CHARS) message = `${message.slice(0, MAX_PROGRESS_MESSAGE_CHARS)}... (cut)`;
  return { progress: number(report.progress) ?? 0, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
}

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
