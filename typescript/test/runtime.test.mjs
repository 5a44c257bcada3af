// omnimessage/runtime: the entry generated code links to; `register` refuses code of an
// incompatible schema or generator with an IncompatibleSchemaError, naming both sides.
import { test } from "node:test";
import assert from "node:assert/strict";
import { GENERATOR_VERSION, PROTOCOL_VERSION, SCHEMA_ID, IncompatibleSchemaError as FromIndex } from "../dist/index.js";
import { IncompatibleSchemaError, incompatibility, register } from "omnimessage/runtime";

const schema = (v) => `urn:omnimessage:schema:${v}`;
const [maj, min, pat] = SCHEMA_ID.split(":").at(-1).split(".").map(Number);
const [gmaj, gmin, gpat] = GENERATOR_VERSION.split(".").map(Number);
const ok = { schemaId: SCHEMA_ID, generatorVersion: GENERATOR_VERSION };

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

test("code generated for another protocol version is refused, saying which; the runtime's own version is not", () => {
  const pinned = `${SCHEMA_ID}:protocol-0.2.4`;
  assert.throws(() => register({ ...ok, schemaId: pinned }), (e) => {
    assert.ok(e instanceof IncompatibleSchemaError);
    assert.ok(e.message.includes('it was generated for protocol "0.2.4", and this package\'s codec decodes protocol'), e.message);
    assert.ok(e.message.includes("--target typescript-types"), e.message);
    return true;
  });
  assert.equal(incompatibility({ ...ok, schemaId: `${SCHEMA_ID}:protocol-${PROTOCOL_VERSION}` }), null);
});
