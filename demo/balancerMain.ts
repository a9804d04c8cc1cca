// The `--workers` balancer on its own, for a bench that puts it in front of its own host processes:
// `fork('demo/balancerMain.ts', ['8788,8789,8790'])` answers `{ port }` over IPC once it listens on a
// free port. Bare TCP (no PROXY header): the bench's hosts count no addresses.
import { startBalancer } from './cluster.js';

const ports = (process.argv[2] ?? '').split(',').map(Number);
if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
  console.error(`usage: balancerMain.ts <port,port,…>, not "${process.argv[2] ?? ''}"`);
  process.exit(2);
}
const balancer = await startBalancer(0, ports);
process.send?.({ port: balancer.port });
process.on('disconnect', () => void balancer.close().then(() => process.exit(0)));
