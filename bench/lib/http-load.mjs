/** The bench side of the HTTP load generator: one child process, one job at a time. */
import { fork } from 'node:child_process';

export class HttpLoad {
  #child = fork(new URL('./http-load-process.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

  /**
   * Fires `body` at POST http://127.0.0.1:{port}{path} from `concurrency` keep-alive loops
   * until the deadline or maxCalls; resolves to {latencies (ms), elapsedMs, failures}.
   */
  run({ port, path = '/mcp', headers, body, concurrency, durationMs, maxCalls }) {
    return new Promise((resolve, reject) => {
      const onExit = (code) => {
        this.#child.off('message', onMessage);
        reject(new Error(`the load generator exited (code ${code})`));
      };
      const onMessage = (reply) => {
        this.#child.off('exit', onExit);
        if (!reply.ok) return reject(new Error(reply.error));
        // Copied into a fresh, 8-byte aligned buffer: a decoded Buffer may sit at any pool offset.
        const latencies = new Float64Array(new Uint8Array(Buffer.from(reply.latencies, 'base64')).buffer);
        resolve({ latencies, elapsedMs: reply.elapsedMs, failures: reply.failures });
      };
      this.#child.once('message', onMessage);
      this.#child.once('exit', onExit);
      this.#child.send({ port, path, headers, body, concurrency, durationMs, maxCalls });
    });
  }

  close() {
    if (this.#child.connected) this.#child.disconnect();
  }
}
