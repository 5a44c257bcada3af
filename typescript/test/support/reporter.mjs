// A terse node:test reporter: a dot per passing test, each failure in full, and one closing
// line `N passed, N failed, N skipped` (what CI logs are read for).
import { inspect } from "node:util";

export default async function* reporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let column = 0;
  const failures = [];
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { data } = event;
    if (data.details?.type === "suite") {
      if (event.type === "test:fail" && data.details.error?.failureType !== "subtestsFailed") {
        failures.push(`✖ ${data.name} (${data.file ?? ""})\n${inspect(data.details.error, { depth: 4 })}`);
      }
      continue;
    }
    let mark = ".";
    if (event.type === "test:fail") {
      failed++;
      mark = "X";
      failures.push(`✖ ${data.name} (${data.file ?? ""})\n${inspect(data.details.error, { depth: 4 })}`);
    } else if (data.skip !== undefined && data.skip !== false) {
      skipped++;
      mark = "s";
    } else passed++;
    yield mark;
    if (++column % 80 === 0) yield "\n";
  }
  yield "\n";
  for (const f of failures) yield `\n${f}\n`;
  yield `${passed} passed, ${failed} failed, ${skipped} skipped\n`;
}
