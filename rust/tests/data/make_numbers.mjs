// Writes numbers.txt: doubles (as 16 hex digits of their bits) and what ECMAScript's
// Number::toString spells them; the Rust encoder must agree on every one (tests/numbers.rs).
// Run: node tests/data/make_numbers.mjs > tests/data/numbers.txt
const buf = new DataView(new ArrayBuffer(8));
let seed = 0x2545f4914f6cdd1dn;
const next = () => {
  seed ^= (seed << 13n) & 0xffffffffffffffffn;
  seed ^= seed >> 7n;
  seed ^= (seed << 17n) & 0xffffffffffffffffn;
  return seed;
};
const out = [];
const add = (x) => {
  if (!Number.isFinite(x)) return;
  buf.setFloat64(0, x);
  out.push(buf.getBigUint64(0).toString(16).padStart(16, "0") + " " + String(x));
};
for (const x of [0, -0, 1, 5, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1e21, 1e20, 123e18, 1e-6, 1e-7, 1.5e-7, 5e-324,
  1.7976931348623157e308, 2 ** 53, 2 ** 53 + 2, 1e22, 9007199254740993, 4.35, 0.000001234, 1.2e-6,
  123456789012345680000, 2.5e-8, 100, 1e100, 2 ** -1074 * 3, 2 ** 1023, 0.5, 1.005, 29.999999999999996]) {
  add(x);
  add(-x);
}
for (let i = 0; i < 3000; i++) {
  buf.setBigUint64(0, next());
  add(buf.getFloat64(0));
}
for (let i = 0; i < 2000; i++) {
  // short decimals (ties between candidate digit strings are likelier there)
  const d = Number(next() % 100000n) / 10 ** Number(next() % 12n);
  add(d * 10 ** (Number(next() % 40n) - 20));
}
console.log(out.join("\n"));
