// Exits 0 when a TCP connection to the PostgreSQL URL's host and port succeeds.
import net from 'node:net';
const url = new URL(process.argv[2]);
const socket = net.connect({ host: url.hostname, port: Number(url.port || 5432) });
socket.setTimeout(2000);
socket.on('connect', () => {
  socket.end();
  process.exit(0);
});
socket.on('timeout', () => process.exit(1));
socket.on('error', () => process.exit(1));
