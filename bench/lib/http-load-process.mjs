/**
 * The HTTP load generator, in its own process so that its work (building requests, reading
 * replies) is neither on the servers' event loop nor in the bench process's CPU time, which
 * then counts server work only. It only talks to 127.0.0.1, every run is bounded by a call
 * count and a deadline, and it exits when its parent goes away.
 */
import http from 'node:http';

process.on('disconnect', () => process.exit(0));
process.on('message', async (job) => {
  try {
    const { latencies, elapsedMs, failures } = await run(job);
    process.send({ ok: true, latencies: Buffer.from(latencies.buffer, latencies.byteOffset, latencies.byteLength).toString('base64'), elapsedMs, failures });
  } catch (error) {
    process.send({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});

async function run({ port, path, headers, body, concurrency, durationMs, maxCalls }) {
  if (!Number.isInteger(port)) throw new Error('port must be an integer');
  const payload = Buffer.from(body);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const options = { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { ...headers, 'content-length': payload.length } };
  const latencies = new Float64Array(maxCalls);
  let count = 0;
  let failures = 0;
  let firstFailure;
  const started = performance.now();
  const deadline = started + durationMs;

  async function user() {
    while (count < maxCalls && performance.now() < deadline) {
      const t0 = performance.now();
      const reply = await post(options, payload);
      const t1 = performance.now();
      const failure = checkReply(reply);
      if (failure) {
        failures += 1;
        firstFailure ??= failure;
        if (failures >= 5) throw new Error(`calls are failing: ${firstFailure}`);
        continue;
      }
      if (count < maxCalls) latencies[count++] = t1 - t0;
    }
  }

  try {
    await Promise.all(Array.from({ length: concurrency }, user));
  } finally {
    agent.destroy();
  }
  return { latencies: latencies.subarray(0, count), elapsedMs: performance.now() - started, failures };
}

function post(options, payload) {
  return new Promise((resolve, reject) => {
    const req = http.request(options, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no reply within 10 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Cheap per-call check (the full check runs once before measuring): a 200 with a non-error result. */
function checkReply({ status, body }) {
  if (status !== 200) return `HTTP ${status}: ${body.subarray(0, 200).toString()}`;
  if (!body.subarray(0, 64).includes('"result"')) return `not a result: ${body.subarray(0, 200).toString()}`;
  if (body.includes('"isError":true')) return 'tool returned isError';
  return undefined;
}
