// Signs and verifies webhooks with GitHub's official library (@octokit/webhooks-methods),
// for tests/signatures.rs. The same protocol as official.py, with lib "github":
// {"ops": [...]} on stdin, {"results": [...]} on stdout. Copied by the test beside the
// node_modules that setup.sh installed, so that the import below resolves.
import { sign, verify } from "@octokit/webhooks-methods";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const op of JSON.parse(input).ops) {
  if (op.op === "sign") {
    results.push({ headers: [["X-Hub-Signature-256", await sign(op.secret, op.body)]] });
    continue;
  }
  const header = op.headers.find(([name]) => name.toLowerCase() === "x-hub-signature-256");
  try {
    const accepted = await verify(op.secret, op.body, header ? header[1] : "");
    results.push({ accepted, reason: accepted ? "" : "refused" });
  } catch (e) {
    results.push({ accepted: false, reason: String(e) });
  }
}
process.stdout.write(JSON.stringify({ results }));
