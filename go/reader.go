package omnimessage

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// JSON Lines reading (schema/README.md section 1.4): every line decoded or reported with its
// 1-based number, never stopping at a bad one. A line longer than the limit is `too_large` and is
// skipped without being kept; a last line with no LF that does not parse (`invalid_utf8`,
// `invalid_json`) is a torn write, `truncated`. Memory: the longest line kept (at most the limit)
// and a 64 KiB buffer.

// ReaderOptions says how to read.
type ReaderOptions struct {
	// Lenient keeps well-formed objects strict decoding refuses as opaque messages.
	Lenient bool
	// MaxLineBytes is the longest line accepted, its LF not counted; 0: the schema's default.
	MaxLineBytes int
}

// Line is one line of the input: a message, an opaque message (lenient) or a refusal.
type Line[T any] struct {
	Number     int    // 1-based
	Raw        []byte // without its LF (nil for a too_large line, which is not kept)
	Message    T      // when Err and Opaque are nil
	Opaque     *Opaque
	Err        *Error
	Terminated bool // false for a last line with no LF
}

// Reader reads the lines of a JSON Lines input and decodes each with decode.
type Reader[T any] struct {
	in     *bufio.Reader
	opts   ReaderOptions
	decode func([]byte) (T, error)
	number int
	done   bool
}

// NewReader reads r line by line; decode is a generated strict decoder (messages.Decode).
func NewReader[T any](s *Schema, r io.Reader, opts ReaderOptions, decode func([]byte) (T, error)) *Reader[T] {
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = s.DefaultMaxLineBytes
	}
	return &Reader[T]{in: bufio.NewReaderSize(r, 1<<16), opts: opts, decode: decode}
}

// nextRaw reads the next line's bytes (without LF), whether it was longer than the limit, and
// whether an LF ended it; ok is false at the end of the input.
func (r *Reader[T]) nextRaw() (raw []byte, tooLarge, terminated, ok bool, err error) {
	any := false
	for {
		chunk, e := r.in.ReadSlice('\n')
		if len(chunk) > 0 {
			any = true
		}
		found := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if found {
			chunk = chunk[:len(chunk)-1]
		}
		if !tooLarge {
			if len(raw)+len(chunk) > r.opts.MaxLineBytes {
				tooLarge, raw = true, nil
			} else {
				raw = append(raw, chunk...)
			}
		}
		if found {
			return raw, tooLarge, true, true, nil
		}
		if e == nil || errors.Is(e, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(e, io.EOF) {
			return raw, tooLarge, false, any, nil
		}
		return nil, false, false, true, e
	}
}

// Next is the next line; ok is false at the end of the input.
func (r *Reader[T]) Next() (line Line[T], ok bool) {
	if r.done {
		return line, false
	}
	raw, tooLarge, terminated, ok, err := r.nextRaw()
	if !ok {
		r.done = true
		return line, false
	}
	r.number++
	line = Line[T]{Number: r.number, Raw: raw, Terminated: terminated}
	if err != nil {
		r.done = true
		line.Err = lineError(Truncated, -1, "read error: "+err.Error())
		line.Err.Line = r.number
		return line, true
	}
	if !terminated {
		r.done = true
	}
	if tooLarge {
		line.Err = lineError(TooLarge, -1, "line longer than "+strconv.Itoa(r.opts.MaxLineBytes)+" bytes")
	} else if m, derr := r.decode(raw); derr == nil {
		line.Message = m
	} else {
		line.Err = AsError(derr)
		if r.opts.Lenient {
			if o := OpaqueOf(raw, line.Err); o != nil {
				line.Opaque, line.Err = o, nil
			}
		}
	}
	if line.Err != nil {
		if !terminated && (line.Err.Category == InvalidUTF8 || line.Err.Category == InvalidJSON) {
			line.Err.Detail = "last line has no line feed and does not decode (" + string(line.Err.Category) +
				": " + line.Err.Detail + ")"
			line.Err.Category = Truncated
		}
		line.Err.Line = r.number
	}
	return line, true
}

// AsError is err as an *Error (a decoder returns no other kind; anything else becomes invalid_json).
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return jsonError(-1, err.Error())
}
