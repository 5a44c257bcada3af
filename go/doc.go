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
package omnimessage
