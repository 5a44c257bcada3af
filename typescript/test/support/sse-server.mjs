// A node:http server of one SseChannel for the hostile-client tests (produce-sse.test.mjs): it
// prints its port, then answers each line on stdin with the channel's subscriber count. Run as a
// child process, so a handler that throws shows as a dead process, not as a broken test runner.
import { createServer } from "node:http";
import * as produce from "omnimessage/produce";

const ch = new produce.SseChannel();
ch.publish("[]");
const server = createServer(produce.sseHandler(ch, { heartbeatMs: 60_000 }));
server.listen(0, "127.0.0.1", () => process.stdout.write(`port ${server.address().port} ${ch.epoch}\n`));
process.stdin.setEncoding("utf8");
process.stdin.on("data", () => process.stdout.write(`subscribers ${ch.subscriberCount}\n`));
process.stdin.on("end", () => process.exit(0));
