// The yardstick for the reference's polling endpoint: a bare node:http server that
// answers every request with the same bytes the reference answered (body and
// content type), doing no routing, authentication or validation.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [portArg, bodyFile, contentType = 'application/json; charset=utf-8'] = process.argv.slice(2);
if (!portArg || !bodyFile) {
  console.error('usage: node --import tsx bench/bare-server.ts <port> <body-file> [content-type]');
  process.exit(2);
}
const body = readFileSync(bodyFile);
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write(`listening ${portArg}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
