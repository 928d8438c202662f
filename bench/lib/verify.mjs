/** One replayed request, fully checked, before any measuring: the raw shape must work on each server. */
import http from 'node:http';

export function postOnce(port, { headers, body }) {
  const payload = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...headers, 'content-length': payload.length } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, contentType: res.headers['content-type'] ?? '', text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no reply within 10 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The JSON-RPC message in a JSON or SSE reply. */
function parseReply({ contentType, text }) {
  if (contentType.startsWith('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim());
    return JSON.parse(data.at(-1));
  }
  return JSON.parse(text);
}

/** Sends the request and returns the tool result, throwing with a readable reason unless it is a non-error result. */
export async function verifyCall(label, port, request) {
  const reply = await postOnce(port, request);
  if (reply.status !== 200) throw new Error(`${label}: HTTP ${reply.status}: ${reply.text.slice(0, 300)}`);
  const message = parseReply(reply);
  if (!message.result) throw new Error(`${label}: JSON-RPC error ${JSON.stringify(message.error).slice(0, 300)}`);
  if (message.result.isError) throw new Error(`${label}: tool error ${JSON.stringify(message.result.content).slice(0, 300)}`);
  return message.result;
}
