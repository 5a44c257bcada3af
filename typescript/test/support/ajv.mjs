// The canonical schema compiled by ajv (2020-12, strict), for tests and benchmarks.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

export const schema = JSON.parse(readFileSync(new URL("../../../schema/omnimessage.schema.json", import.meta.url), "utf8"));

/** Every `x-omnimessage-*` annotation keyword the schema uses, with its value type. */
export function omnimessageKeywords(node, out = new Map()) {
  if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("x-omnimessage-")) out.set(k, typeof v === "boolean" ? "boolean" : "object");
      omnimessageKeywords(v, out);
    }
  }
  return out;
}

/** ajv 2020 in strict mode with only the schema's own annotation keywords registered. */
export function compileSchema(options = {}) {
  const ajv = new Ajv2020({ strict: true, ...options });
  for (const [keyword, schemaType] of omnimessageKeywords(schema)) ajv.addKeyword({ keyword, schemaType });
  return ajv.compile(schema);
}
