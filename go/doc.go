// Package omnimessage is the runtime of the Go binding of OmniMessage: a strict, byte-exact codec
// of the OmniMessage protocol, standard library only.
//
// It carries what the schema cannot generate: the strict scanner (the grammar of RFC 8259, the
// nesting limit, strings read as WTF-8 so that a lone surrogate escape survives), the number
// spelling of ECMAScript (`JSON.stringify`), verbatim values kept byte for byte, errors with a
// category, a JSON pointer and a byte offset (schema/README.md section 4), the level-3 walk that
// decides which lexical defect a refused line gets, and a JSON Lines reader.
//
// The types, schema tables, typed decoders, canonical encoders, builders and guards are generated
// from the schema (`omnimessage generate --target go`) into the package `messages`
// (github.com/omnimessage/omnimessage/go/messages in this module), which sits on this runtime:
// decode with messages.Decode, encode with messages.Encode.
//
// # Exported API
//
// This list is every exported name of the package (docs/bindings.md, "The public API";
// codegen/tests/test_runtime_namespace.py fails when the two drift). Users need the first group;
// the second is the runtime namespace generated code imports as `om`, not meant for direct use.
//
// For users:
//   - errors: [Error], [AsError], [Category], [AllCategories] and the categories [InvalidUTF8],
//     [InvalidJSON], [TrailingData], [LineBreak], [TooDeep], [TooLarge], [Truncated],
//     [DuplicateKey], [LoneSurrogate], [InvalidNumber], [WrongType], [MissingField],
//     [UnexpectedField], [UnknownType], [InvalidValue]
//   - reading JSON Lines (messages.NewReader): [Reader], [Line], [ReaderOptions]
//   - values: [Fragment], [Verbatim], [VerbatimFromJSON], [NumberOrString], [NullString], [Opaque]
//   - versions: [ProtocolVersions], [AcceptProtocol], [IncompatibleSchemaError]
//
// For generated code:
//   - the schema's tables: [Schema], [Bind], [PayloadInfo], [VerbatimAt], [Shape], [ShapeObject],
//     [ShapeScalarMap]
//   - decoding: [De], [Path], [Unknown], [DecodeAs], [DecodeArray], [OpaqueOf], [NewReader]
//   - encoding: [AppendArray], [AppendBool], [AppendFloat], [AppendString], [AppendUint]
//   - builders: [Deref], [Or], [Ptr], [NonEmptySlice], [NonEmptyVerbatim], [TimestampOr]
package omnimessage
