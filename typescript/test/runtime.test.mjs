// omnimessage/runtime: the entry generated code links to; `register` refuses code of an
// incompatible schema or generator with an IncompatibleSchemaError, naming both sides.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GENERATOR_VERSION, PROTOCOL_VERSION, PROTOCOL_VERSIONS, SCHEMA_ID, IncompatibleSchemaError as FromIndex } from "../dist/index.js";
import { IncompatibleSchemaError, incompatibility, register } from "omnimessage/runtime";
import { checkMessage } from "../dist/generated/check.js";
import { encodeMessage, writeMessage } from "../dist/generated/encode.js";
import { readMessage } from "../dist/generated/read.js";
import { FRAGMENT_OF, PAYLOAD_STRUCTS, VERBATIM_LOCATIONS } from "../dist/generated/schema.js";
import { isValidMessage } from "../dist/generated/validate.js";

const schema = (v) => `urn:omnimessage:schema:${v}`;
const [maj, min, pat] = SCHEMA_ID.split(":").at(-1).split(".").map(Number);
const [gmaj, gmin, gpat] = GENERATOR_VERSION.split(".").map(Number);
const ok = { schemaId: SCHEMA_ID, generatorVersion: GENERATOR_VERSION };
// What generated code hands over (src/generated/runtime.ts): the parts of the codec of its version.
const OWN_TABLES = { protocolVersion: PROTOCOL_VERSION, readMessage, checkMessage, isValidMessage, writeMessage, encodeMessage,
  verbatimLocations: VERBATIM_LOCATIONS, payloadStructs: PAYLOAD_STRUCTS, fragmentOf: FRAGMENT_OF };

test("the package's own generated code registers, and gets the builders' helpers", () => {
  const rt = register(ok);
  assert.deepEqual(Object.keys(rt).sort(), ["defined", "nonEmpty", "stamp", "verbatim"]);
  assert.equal(rt.stamp("2026-07-18T03:10:22.531Z"), "2026-07-18T03:10:22.531Z");
  assert.equal(FromIndex, IncompatibleSchemaError); // one class, whichever entry it is imported from
});

test("older generated code of the same schema major and generator line is accepted", () => {
  if (pat > 0) assert.equal(incompatibility({ ...ok, schemaId: schema(`${maj}.${min}.${pat - 1}`) }), null);
  if (min > 0) assert.equal(incompatibility({ ...ok, schemaId: schema(`${maj}.${min - 1}.9`) }), null);
  assert.equal(incompatibility({ ...ok, schemaId: schema(`${maj}.0.0`) }), null);
  assert.equal(incompatibility({ ...ok, generatorVersion: `${gmaj}.${gmin}.0` }), null);
});

test("a schema of another major version, a newer schema or a foreign id is refused, naming both sides", () => {
  for (const [schemaId, why] of [
    [schema(`${maj + 1}.0.0`), "schema major versions differ"],
    [schema(`${maj}.${min + 1}.0`), "is newer than this runtime's"],
    [schema(`${maj}.${min}.${pat + 1}`), "is newer than this runtime's"],
    ["urn:example:other:1.0.0", "is not urn:omnimessage:schema:MAJOR.MINOR.PATCH"],
    [undefined, "is not urn:omnimessage:schema:"],
  ]) {
    assert.throws(() => register({ ...ok, schemaId }), (e) => {
      assert.ok(e instanceof IncompatibleSchemaError && e instanceof Error, String(e));
      assert.equal(e.name, "IncompatibleSchemaError");
      assert.ok(e.message.includes(why), e.message);
      assert.ok(e.message.includes(`this runtime (omnimessage ${GENERATOR_VERSION}, schema ${SCHEMA_ID})`), e.message);
      assert.ok(e.message.includes(`Regenerate it with omnimessage ${GENERATOR_VERSION}`), e.message);
      assert.deepEqual(e.generated, { ...ok, schemaId });
      return true;
    });
  }
});

test("code from a newer generator, or another generator line, is refused", () => {
  const newer = [`${gmaj}.${gmin}.${gpat + 1}`, `${gmaj}.${gmin + 1}.0`, `${gmaj + 1}.0.0`];
  const other = gmaj === 0 && gmin > 0 ? [`0.${gmin - 1}.0`] : gmaj > 0 ? [`${gmaj - 1}.0.0`] : [];
  for (const generatorVersion of [...newer, ...other]) {
    assert.throws(() => register({ ...ok, generatorVersion }), (e) => {
      assert.ok(e instanceof IncompatibleSchemaError);
      assert.ok(e.message.includes(`generator ${generatorVersion} needs an omnimessage runtime ^${generatorVersion}`), e.message);
      return true;
    });
  }
  assert.throws(() => register({ ...ok, generatorVersion: "latest" }), /generator version "latest" is not MAJOR.MINOR.PATCH/);
});

test("what the message quotes from generated code is clipped", () => {
  assert.throws(() => register({ ...ok, schemaId: "x".repeat(10_000) }), (e) => e.message.length < 800);
});

test("the version rule: every protocol version the runtime's schema lists is accepted, any other refused, naming the known ones", () => {
  assert.deepEqual(PROTOCOL_VERSIONS.at(-1), PROTOCOL_VERSION);
  assert.ok(PROTOCOL_VERSIONS.includes("0.2.4"), PROTOCOL_VERSIONS);
  const tables = (protocolVersion) => ({ ...OWN_TABLES, protocolVersion });
  // accepted: 0.2.4 code that hands over its tables gets the codec bound to them
  const pinned = { ...ok, schemaId: `${SCHEMA_ID}:protocol-0.2.4`, protocolVersion: "0.2.4", tables: tables("0.2.4") };
  assert.equal(incompatibility(pinned), null);
  assert.equal(register(pinned).codec.protocolVersion, "0.2.4");
  assert.equal(incompatibility({ ...ok, schemaId: `${SCHEMA_ID}:protocol-${PROTOCOL_VERSION}` }), null);
  // refused: a version the runtime does not know, named, with the ones it knows
  const unknown = { ...ok, schemaId: `${SCHEMA_ID}:protocol-9.9`, protocolVersion: "9.9", tables: tables("9.9") };
  assert.throws(() => register(unknown), (e) => {
    assert.ok(e instanceof IncompatibleSchemaError);
    assert.ok(e.message.includes(`this runtime knows no protocol "9.9" (it knows ${PROTOCOL_VERSIONS.join(", ")})`), e.message);
    return true;
  });
  // refused: an older version without its tables (this package's own codec is the newest version's)
  assert.match(incompatibility({ ...ok, schemaId: `${SCHEMA_ID}:protocol-0.2.4` }), /generated for protocol "0.2.4" without its codec tables/);
  // refused: a version that contradicts the schema id or the tables
  assert.match(incompatibility({ ...pinned, protocolVersion: PROTOCOL_VERSION }), /states protocol .* and its schema id protocol "0.2.4"/);
  assert.match(incompatibility({ ...pinned, tables: tables(PROTOCOL_VERSION) }), /codec tables are of protocol/);
});
